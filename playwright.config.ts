import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The app runs on a port of its own, chosen once by the runner; workers inherit it through the environment.
function pickFreePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', script]).toString().trim();
}
process.env.E2E_PORT ??= pickFreePort();
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
// The local EVM chain e2e/server.ts starts (watched as ethereum), and where it writes the certificate of the
// tests' https webhook receivers (the worker trusts it): both known to the tests through the environment.
process.env.E2E_CHAIN_PORT ??= pickFreePort();
process.env.E2E_BITCOIN_PORT ??= pickFreePort();
// The TRON JSON-RPC façade over that chain (watched as tron): its /jsonrpc and /evm on this port.
process.env.E2E_TRON_PORT ??= pickFreePort();
process.env.E2E_TLS_DIR ??= path.join(os.tmpdir(), `invoicing-e2e-tls-${process.env.E2E_PORT}`);

// Specs that pay on, mine or read the local chains (EVM, the TRON façade, Bitcoin regtest, the price feeds).
const CHAIN_SPECS = /(live-payment|tron-payment|bitcoin-payment|fiat-price)\.spec\.ts$/;

// Debian's Chromium on these machines (Playwright cannot download browsers here); Playwright's own elsewhere.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Two files at a time (E2E_WORKERS): most of a spec's time is spent waiting on the server, the worker or the
  // chain. The specs that drive the shared local chains run one at a time (project `chain`): one spec mining
  // blocks would confirm another's payment before it saw the payment pending.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: existsSync(chromiumPath) ? chromiumPath : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chain', testMatch: CHAIN_SPECS, workers: 1, use: { browserName: 'chromium' } },
    { name: 'portal', testIgnore: CHAIN_SPECS, use: { browserName: 'chromium' } },
  ],
  webServer: {
    command: 'npx tsx e2e/server.ts',
    url: `${baseURL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    env: {
      E2E_PORT: process.env.E2E_PORT,
      E2E_CHAIN_PORT: process.env.E2E_CHAIN_PORT,
      E2E_BITCOIN_PORT: process.env.E2E_BITCOIN_PORT,
      E2E_TLS_DIR: process.env.E2E_TLS_DIR,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  },
});
