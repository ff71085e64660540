/**
 * `npm test`: the whole suite. The browser check and `next build` run first, once; then vitest (its files in
 * parallel lanes, tests/setup/global.ts) and Playwright (e2e/) run side by side, each against servers and
 * databases of its own, their lines prefixed. Both always run to the end; the exit code is non-zero when
 * either failed. TEST_SERIAL=1 runs vitest, then Playwright, as one stream (easier to read when debugging).
 *
 * Much of each suite's time is spent waiting (on servers, chains, workers, the browser), which is why running
 * them side by side pays on two cores; the figures are in docs/architecture.md, "Checks".
 */
import { spawn, spawnSync } from 'node:child_process';
import { ensureBuild } from './next-app';

interface Suite {
  name: string;
  args: string[];
}

const SUITES: Suite[] = [
  { name: 'vitest', args: ['vitest', 'run'] },
  { name: 'e2e', args: ['playwright', 'test'] },
];

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on('end', () => {
    if (pending) out.write(`[${name}] ${pending}\n`);
  });
}

function run(suite: Suite, prefixed: boolean): Promise<number> {
  const started = Date.now();
  const child = spawn('npx', suite.args, {
    stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: process.env,
  });
  if (prefixed) {
    prefixLines(suite.name, child.stdout!, process.stdout);
    prefixLines(suite.name, child.stderr!, process.stderr);
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      const status = code ?? (signal ? 128 : 1);
      console.error(
        `[${suite.name}] ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit code ${code}`})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      resolve(status);
    });
  });
}

async function main(): Promise<number> {
  const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-browser.ts'], { stdio: 'inherit' });
  if (check.status !== 0) return check.status ?? 1;
  // Both suites start servers from the same build: make it once, before either starts.
  await ensureBuild({ stdio: 'inherit' });
  process.env.NEXT_BUILD_FROZEN = '1';

  const started = Date.now();
  let codes: number[];
  if (process.env.TEST_SERIAL === '1') {
    codes = [];
    for (const suite of SUITES) codes.push(await run(suite, false));
  } else {
    codes = await Promise.all(SUITES.map((suite) => run(suite, true)));
  }
  const failed = SUITES.filter((_, index) => codes[index] !== 0).map((suite) => suite.name);
  console.error(
    `npm test: ${failed.length === 0 ? 'all passed' : `FAILED: ${failed.join(', ')}`} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
