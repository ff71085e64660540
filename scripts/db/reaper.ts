import { spawn } from 'node:child_process';

/**
 * A watchdog for a throwaway embedded PostgreSQL (the e2e server's): a detached process that, once `ownerPid`
 * has exited, stops the server in `dataDir` (fast shutdown) and deletes `removeDir`. The owner's own shutdown
 * does the same when it gets to run; when it is killed first (a stop under load that outlasts the runner's
 * grace period), the database would otherwise keep running, and its files stay, until the machine restarts.
 */
export function reapWhenGone(ownerPid: number, dataDir: string, removeDir: string): void {
  const child = spawn(process.execPath, ['-e', REAPER, String(ownerPid), dataDir, removeDir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
}

// Plain JavaScript run by `node -e`: no loader, nothing to compile, alive for as long as the owner.
const REAPER = `
const fs = require('node:fs');
const path = require('node:path');
const [owner, dataDir, removeDir] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const postmaster = () => { try { return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\\n')[0]); } catch { return 0; } };
const timer = setInterval(() => {
  if (alive(Number(owner))) return;
  clearInterval(timer);
  const pid = postmaster();
  if (pid > 0 && alive(pid)) process.kill(pid, 'SIGINT');
  const started = Date.now();
  const finish = setInterval(() => {
    if (pid > 0 && alive(pid) && Date.now() - started < 30000) return;
    clearInterval(finish);
    fs.rmSync(removeDir, { recursive: true, force: true });
  }, 200);
}, 1000);
`;
