// `prisma generate` that works with and without internet access.
//
// Prisma 7's CLI tries to download the native schema-engine binary before generating, although generate never
// runs it. Offline that download fails (ENOTFOUND). We first run the plain command; only if it fails with a
// download error do we retry with PRISMA_SCHEMA_ENGINE_BINARY pointing at an executable stub.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const prismaBin = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');

const DOWNLOAD_ERROR =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|binaries\.prisma\.sh|failed to fetch|request to https?:\/\/\S+ failed/i;

function run(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaBin, 'generate'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      process.stdout.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
      // Held back: shown only if the retry does not fix it.
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function stubPath(): string {
  const candidates = [
    path.join(root, 'node_modules', '.cache', 'prisma-offline'),
    path.join(os.tmpdir(), 'prisma-offline'),
  ];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'schema-engine-stub');
      if (!existsSync(file)) {
        writeFileSync(
          file,
          '#!/bin/sh\necho "schema-engine stub (offline prisma generate): use npm run db:migrate instead" >&2\nexit 1\n',
        );
      }
      chmodSync(file, 0o755);
      return file;
    } catch {
      // try the next location
    }
  }
  throw new Error('could not create a schema-engine stub');
}

async function main() {
  const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
  const first = await run(env);
  if (first.code === 0) return;
  if (!DOWNLOAD_ERROR.test(first.output) || process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
    process.stderr.write(first.output);
    process.exit(first.code);
  }
  // Expected on an offline machine, not a fault: say what happens in words that do not read as a warning.
  console.error(
    'prisma generate: no network for the schema-engine download; generating offline (generate never runs that engine)',
  );
  const second = await run({ ...env, PRISMA_SCHEMA_ENGINE_BINARY: stubPath() });
  if (second.code !== 0) {
    process.stderr.write(second.output);
    process.exit(second.code);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
