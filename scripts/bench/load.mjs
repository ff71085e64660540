// Load generator, run as its own process so it never competes with the server's event loop.
// Input: one JSON argument { url, method, connections, duration, paths[], headers[], body? }.
// Output: one JSON line with autocannon's figures.
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2]);
let next = 0;

const instance = autocannon({
  url: config.url,
  connections: config.connections,
  duration: config.duration,
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

instance.on('done', (result) => {
  process.stdout.write(
    JSON.stringify({
      requestsPerSecond: result.requests.average,
      // Requests still in flight when the run ends are cut off here but completed by the server: count them.
      sent: result.requests.sent,
      total: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      ok2xx: result['2xx'],
      non2xx: result.non2xx,
      status5xx: result['5xx'],
      errors: result.errors,
      timeouts: result.timeouts,
    }) + '\n',
  );
});
