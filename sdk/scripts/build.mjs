// Builds the package with the TypeScript compiler only (no bundler, nothing downloaded):
// - dist/esm: `tsc -p tsconfig.esm.json` — type-checks the sources and emits ES modules with their .d.ts;
// - dist/cjs: the same sources transpiled to CommonJS file by file (ts.transpileModule: the check above already
//   ran), with the same .d.ts beside them;
// and a package.json in each folder telling Node which module system its .js files use.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const ts = require('typescript');
const src = path.join(root, 'src');
const esm = path.join(root, 'dist', 'esm');
const cjs = path.join(root, 'dist', 'cjs');

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.esm.json')], {
  cwd: root,
  stdio: 'inherit',
});

const cjsOptions = {
  ...ts.getDefaultCompilerOptions(),
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  esModuleInterop: true,
};
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
  const relative = path.relative(src, path.join(entry.parentPath, entry.name)).replace(/\.ts$/, '');
  const { outputText } = ts.transpileModule(readFileSync(path.join(src, `${relative}.ts`), 'utf8'), {
    compilerOptions: cjsOptions,
    fileName: `${relative}.ts`,
  });
  mkdirSync(path.dirname(path.join(cjs, relative)), { recursive: true });
  writeFileSync(path.join(cjs, `${relative}.js`), outputText);
  copyFileSync(path.join(esm, `${relative}.d.ts`), path.join(cjs, `${relative}.d.ts`));
}
writeFileSync(path.join(esm, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
writeFileSync(path.join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
chmodSync(path.join(esm, 'cli.js'), 0o755);
