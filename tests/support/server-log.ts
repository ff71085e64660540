import { openSync, readSync, closeSync, statSync } from 'node:fs';

/** Where the lane server's log ends now: a test's window starts here. */
export function serverLogSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * The lines the lane server logged at warn level or above since `offset` (pino's numeric levels and the
 * app's own `"level":"error"` lines), at most `limit` of them: what a failing test needs to tell a 503 from a 500.
 */
export function serverProblemsSince(file: string, offset: number, limit = 40): string[] {
  const size = serverLogSize(file);
  if (size <= offset) return [];
  const buffer = Buffer.alloc(Math.min(size - offset, 4_000_000));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer
    .toString('utf8')
    .split('\n')
    .filter((line) => /"level":(?:"(?:warn|error|fatal)"|[456]0\b)/.test(line))
    .slice(-limit);
}

/**
 * Waits until the log has stopped growing (at most `limitMs`): the server's lines reach the file through the
 * vitest main process, a moment after the response that a test has already failed on.
 */
export async function serverLogSettled(file: string, limitMs = 2_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  await new Promise((resolve) => setTimeout(resolve, 300));
  let size = serverLogSize(file);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = serverLogSize(file);
    if (now === size) return;
    size = now;
  }
}
