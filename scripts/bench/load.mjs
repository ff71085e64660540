// Load generator, run as its own process so it never competes with the server's event loop.
// Input: one JSON argument { url, method, connections, duration | amount, paths[], headers[], body? }.
// With `amount`, autocannon sends exactly that many requests and waits for every response (no request is left
// in flight); with `duration`, it destroys its sockets when the time is up, so requests still unread by the
// server may never reach it.
// Output: one JSON line with autocannon's figures and every response's latency as a histogram ([ms, count] pairs). With BENCH_TRACE=dir, also <dir>/load-<first response ms>-<pid>.json: the
// run's path and, per response, [end time ms since the epoch, latency ms] (to line tails up with server events).
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2]);
let next = 0;

const instance = autocannon({
  url: config.url,
  connections: config.connections,
  ...(config.amount ? { amount: config.amount } : { duration: config.duration }),
  method: config.method,
  requests: [
    {
      method: config.method,
      setupRequest: (request) => {
        const i = next++;
        request.path = config.paths[i % config.paths.length];
        request.headers = { ...request.headers, ...config.headers[i % config.headers.length] };
        if (config.body !== undefined) {
          request.body = JSON.stringify(config.body);
          request.headers['content-type'] = 'application/json';
        }
        return request;
      },
    },
  ],
});

const trace = process.env.BENCH_TRACE ? [] : null;
// Every response's latency, counted per whole millisecond (rounded up): the bench merges a scenario's rounds
// into one histogram and takes the p99 of all their requests.
const latencyCounts = new Map();
instance.on('response', (_client, _status, _bytes, latencyMs) => {
  const ms = Math.ceil(latencyMs);
  latencyCounts.set(ms, (latencyCounts.get(ms) ?? 0) + 1);
  if (trace) trace.push([Date.now(), latencyMs]);
});

instance.on('done', (result) => {
  if (trace) writeFileSync(`${process.env.BENCH_TRACE}/load-${trace[0]?.[0] ?? Date.now()}-${process.pid}.json`, JSON.stringify({ path: config.paths[0], responses: trace }));
  process.stdout.write(
    JSON.stringify({
      requestsPerSecond: result.requests.average,
      // sent ≥ completed: requests in flight when a timed run ends may or may not have reached the server.
      sent: result.requests.sent,
      completed: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      ok2xx: result['2xx'],
      non2xx: result.non2xx,
      status5xx: result['5xx'],
      errors: result.errors,
      timeouts: result.timeouts,
      latencyHistogram: [...latencyCounts],
    }) + '\n',
  );
});
