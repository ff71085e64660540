// `npm start` on a port that is already taken: one clear line and a non-zero exit, before anything claims to be
// ready (and before it attaches to or starts any database).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('npm start', () => {
  it('exits non-zero with one line naming the port and how to choose another when the port is taken', async () => {
    // The port of the app the test run already serves: exactly "a second npm start while one runs".
    const port = new URL(process.env.TEST_BASE_URL!).port;
    const result = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: port },
      timeout: 60_000,
    }).then(
      (ok) => ({ code: 0, ...ok }),
      (failed: { code: number; stdout: string; stderr: string }) => failed,
    );
    expect(result.code).toBe(1);
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    expect(lines).toEqual([
      `[start] port ${port} is already in use (is the app already running?); choose another with PORT=<port> npm start`,
    ]);
  });
});
