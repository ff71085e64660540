/**
 * Process figures from /proc (Linux): resident memory and CPU time. CPU time per request is the bench's
 * most stable cost figure on a shared machine, where req/s moves with whatever else is running.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resident memory of one process, in KiB (0 when it is gone). */
export function rssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function statFields(pid: number): string[] | null {
  try {
    // Fields after the ")" that closes the command name; utime, stime, cutime, cstime are the 12th–15th.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null;
  }
}

const ticksToMs = (...ticks: (string | undefined)[]) => (ticks.reduce((sum, t) => sum + Number(t ?? 0), 0) * 1000) / TICKS_PER_SECOND;

/** User + system CPU time of one process, in ms (0 when it is gone). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? ticksToMs(fields[11], fields[12]) : 0;
}

/**
 * CPU time of a process and all its children, in ms: live children read directly, exited ones through the
 * parent's cutime/cstime, so the figure never goes backwards when a child (a PostgreSQL backend or
 * autovacuum worker) exits between two readings.
 */
export function treeCpuMs(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  return ticksToMs(fields[11], fields[12], fields[13], fields[14]) + childrenOf(pid).reduce((sum, child) => sum + cpuMs(child), 0);
}

/** Samples the peak RSS of a process and its children (next start's server) until stopped; MiB. */
export function sampleRss(pid: number, everyMs = 250): { stop(): number } {
  let peak = 0;
  const take = () => {
    const kib = [pid, ...childrenOf(pid)].reduce((sum, p) => sum + rssKiB(p), 0);
    peak = Math.max(peak, kib);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return Math.round(peak / 1024);
    },
  };
}
