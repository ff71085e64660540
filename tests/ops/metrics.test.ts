import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordWatcherPass } from '@/lib/chain/watcher-status';
import { beat, forget } from '@/lib/worker/heartbeat';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';

const TOKEN = 'metrics-token-for-the-test-run';
let app: AppInstance;
beforeAll(async () => {
  app = await startAdditionalApp({ env: { METRICS_TOKEN: TOKEN } });
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const scrape = (base: string, authorization?: string) =>
  fetch(`${base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });

/** The value of one series in Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is off (404) without METRICS_TOKEN', async () => {
    const response = await scrape(process.env.TEST_BASE_URL!, `Bearer ${TOKEN}`);
    expect(response.status).toBe(404);
  });

  it('needs the bearer token: none or a wrong one → 401', async () => {
    expect((await scrape(app.baseUrl)).status).toBe(401);
    const wrong = await scrape(app.baseUrl, 'Bearer not-the-token-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Bearer');
    expect(await wrong.text()).not.toContain('http_requests_total');
  });

  it('reports requests by route and status, the queue, deliveries, watcher lag and worker liveness', async () => {
    const account = await seedAccount();
    await call('GET', '/v1/me', { key: account.secret, base: app.baseUrl });
    await call('GET', '/v1/invoices/inv_doesnotexist0000000000', { key: account.secret, base: app.baseUrl });
    const at = new Date(Date.now() - 5000);
    await recordWatcherPass('metrics-test-net', { headBlock: 120n, scannedBlock: 100n }, at);
    await beat('metrics-test-process', ['w1']);
    try {
      const response = await scrape(app.baseUrl, `Bearer ${TOKEN}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(sample(text, 'http_requests_total{route="/v1/me",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'http_requests_total{route="/v1/invoices/{id}",method="GET",status="404"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'database_up')).toBe(1);
      expect(sample(text, 'webhook_deliveries_due')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'webhook_oldest_due_delivery_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'queue_jobs_due')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'webhook_deliveries{outcome="succeeded"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'chain_watcher_lag_blocks{network="metrics-test-net"}')).toBe(20);
      // Never caught up: seconds since its last pass.
      expect(sample(text, 'chain_watcher_lag_seconds{network="metrics-test-net"}')).toBeGreaterThanOrEqual(5);
      expect(sample(text, 'chain_watcher_last_pass_timestamp_seconds{network="metrics-test-net"}')).toBeCloseTo(
        at.getTime() / 1000,
        0,
      );
      expect(sample(text, 'worker_processes_alive')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'worker_heartbeat_age_seconds{process="metrics-test-process"}')).toBeGreaterThanOrEqual(0);
      expect(text).not.toContain(account.secret);
    } finally {
      await forget('metrics-test-process');
    }
  });
});
