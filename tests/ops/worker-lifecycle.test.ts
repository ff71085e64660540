import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import type { WorkerProcess } from '../../scripts/worker-process';
import { restartDelay, superviseWorker, type Supervisor } from '../../scripts/worker-supervisor';
import { eventually, startTestWorker } from '../support/worker';

const workers: WorkerProcess[] = [];
let supervisor: { stop: () => void; sup: Supervisor } | undefined;
afterEach(async () => {
  supervisor?.stop();
  await supervisor?.sup.done;
  await supervisor?.sup.current()?.stop();
  supervisor = undefined;
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

describe('worker processes never die silently', () => {
  it('a runner that stops on its own (graphile-worker shuts its pool down) makes the process exit non-zero', async () => {
    const worker = await startTestWorker();
    workers.push(worker);
    const before = await db().workerHeartbeat.count();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      // graphile-worker stops its pool when told a breaking queue migration happened: a real way for the runner
      // to stop while the process would otherwise go on (heartbeat and all).
      await client.query(`SELECT pg_notify('worker:migrate', '{"migrationNumber": 999999, "breaking": true}')`);
    } finally {
      await client.end();
    }
    const code = await worker.exited;
    expect(code).not.toBe(0);
    expect(worker.output()).toContain('"event":"worker_runner_stopped"');
    // It released its own jobs and heartbeat before exiting: nothing waits for it to go stale.
    expect(await db().workerHeartbeat.count()).toBe(before - 1);
  }, 60_000);

  it('the supervisor (npm start) restarts a worker that died, with back-off, and says so', async () => {
    const lines: string[] = [];
    let stopping = false;
    const sup = superviseWorker({
      start: () => startTestWorker(),
      stopping: () => stopping,
      log: (line) => lines.push(line),
      initialDelayMs: 200,
    });
    supervisor = { stop: () => (stopping = true), sup };
    const first = await eventually(async () => sup.current(), 60_000, 'the first worker');
    first.child.kill('SIGKILL');
    const second = await eventually(
      async () => (sup.current() !== first ? sup.current() : undefined),
      60_000,
      'a restarted worker',
    );
    expect(second.child.pid).not.toBe(first.child.pid);
    expect(lines.join('\n')).toMatch(/\[start\] worker exited \(\d+\); restarting in 0\.2 s \(restart 1, 1 in a row\)/);
    second.child.kill('SIGKILL');
    await eventually(async () => (sup.restarts() >= 2 ? true : undefined), 60_000, 'a second restart');
    expect(lines[1]).toMatch(/restarting in 0\.4 s \(restart 2, 2 in a row\)/);
  }, 120_000);

  it('back-off doubles per failure in a row, up to its maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelay(n, 1000, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });
});
