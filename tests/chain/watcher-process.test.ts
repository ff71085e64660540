import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWatcher } from '@/lib/chain/watcher';
import { watcher } from '../support/chain';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs scripts/chain/watch.ts with extra env until it exits (or `timeoutMs`); returns its stderr. */
function runWatchProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/chain/watch.ts'],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('watcher processes', () => {
  it('an RPC reporting another chain id → the watcher refuses to start, with a clear log line', async () => {
    // Both watchers of the lane's EVM node (ethereum, and tron through its façade) are given mainnet's ids: both
    // refuse. Bitcoin is not watched here (the lane's bitcoin node would keep the process running).
    const { stderr } = await runWatchProcess({
      CHAIN_ID_ETHEREUM: '1',
      CHAIN_ID_TRON: '728126428',
      RPC_URL_BITCOIN: '',
    });
    const tron = stderr.split('\n').find((text) => text.includes('chain_watcher_refused') && text.includes('"tron"'));
    expect(JSON.parse(tron ?? 'null'), stderr).toMatchObject({
      level: 'error',
      network: 'tron',
      message: 'refusing to watch tron: the RPC reports chain id 0x7a69, CHAIN_ID_TRON is 0x2b6653dc (728126428)',
    });
    const line = stderr
      .split('\n')
      .find((text) => text.includes('chain_watcher_refused') && text.includes('"ethereum"'));
    expect(line, stderr).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      level: 'error',
      event: 'chain_watcher_refused',
      network: 'ethereum',
      message: 'refusing to watch ethereum: the RPC reports chain id 31337, CHAIN_ID_ETHEREUM is 1',
    });
  });

  it('two workers → one watcher per network; the standby takes over when the first stops', async () => {
    const leaders: string[] = [];
    const events: string[] = [];
    const first = new AbortController();
    const second = new AbortController();
    const quiet = () => undefined;
    const run = (name: string, signal: AbortSignal) =>
      runWatcher(watcher(), signal, {
        intervalMs: 100,
        log: quiet,
        onLeadership: (leader) => {
          events.push(`${name}:${leader}`);
          if (leader) leaders.push(name);
        },
      });
    const a = run('a', first.signal);
    await waitFor(() => leaders.length === 1);
    const b = run('b', second.signal);
    await new Promise((resolve) => setTimeout(resolve, 600)); // b tries the lock several times meanwhile
    expect(leaders).toEqual(['a']);
    first.abort();
    await a;
    await waitFor(() => leaders.length === 2);
    expect(leaders).toEqual(['a', 'b']);
    expect(events).toEqual(['a:true', 'a:false', 'b:true']);
    second.abort();
    await b;
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
