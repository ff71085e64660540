import { spawn } from 'node:child_process';
import path from 'node:path';
import { runAdmin } from '../../scripts/admin-cli';

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The operator CLI run in this process against the test database (DATABASE_URL): the same `runAdmin` the
 * `npm run admin` process calls, its output captured line by line as the process would print it.
 */
export function admin(...args: string[]): Promise<AdminRun & { code: number }> {
  return adminWith({}, ...args);
}

/**
 * The same, with `input` as standard input and `env` added to the environment the CLI reads itself
 * (ADMIN_USER_PASSWORD); settings the domain modules read (lib/env) need `adminProcess`.
 */
export async function adminWith(
  options: { input?: string; env?: Record<string, string> },
  ...args: string[]
): Promise<AdminRun & { code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
    readStdin: async () => options.input ?? '',
    env: { ...process.env, ...options.env },
  });
  return { code, stdout, stderr };
}

/** The CLI as an operator runs it: its own process, `input` on standard input, extra environment. */
export function adminProcess(
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/admin.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
