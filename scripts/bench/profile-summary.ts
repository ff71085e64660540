/** Summarises a V8 .cpuprofile: top functions by self time, grouped by package or project file. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const dir = process.argv[2] ?? 'bench/profile';
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const self = new Map<string, number>();
const byArea = new Map<string, number>();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { nodes: Node[] };
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(\.next|lib|app)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + hits);
    const area = functionName.startsWith('(') ? functionName : url.includes('node_modules/') ? url.split('node_modules/')[1]!.split('/').slice(0, url.includes('node_modules/@') ? 2 : 1).join('/') : url.startsWith('node:') ? 'node internals' : url ? 'app (.next bundle)' : '(native)';
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
  }
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
console.log('Self time by area:');
for (const [area, hits] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(hits).padStart(6)}  ${area}`);
console.log('\nTop functions by self time:');
for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(hits).padStart(6)}  ${key}`);
