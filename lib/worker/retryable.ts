import { RETRYABLE_ERROR_CODES } from 'graphile-worker/dist/lib';

/**
 * graphile-worker retries a job's completion only for the error codes in this table (serialisation failures,
 * "cannot connect now", host unreachable, timeouts). A database restart also shows up as the server's admin or
 * crash shutdown (57P01, 57P02), a broken connection (08000, 08003, 08006) or a refused/reset socket: without
 * these, the completion's promise rejects with nobody awaiting it and the process dies. With them, completions
 * wait for the database (0.2 s doubling to 5 s between attempts, up to the library's 100 attempts).
 */
const CONNECTION_LOST = { minDelay: 200, maxDelay: 5000 };
const CODES = ['57P01', '57P02', '08000', '08003', '08006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'];

export function retryCompletionsOnLostConnections(): void {
  for (const code of CODES) RETRYABLE_ERROR_CODES[code] ??= CONNECTION_LOST;
}
