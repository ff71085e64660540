// The app's HTTP server: Next's request handler behind a plain node:http server, used by `npm start`,
// `npm run dev`, the test and e2e harnesses and the benchmark (scripts/next-app.ts spawns it), instead of
// `next start`, for two things `next start` does not do:
//
// 1. The client address. `next start` sets X-Forwarded-For to the socket address only when the header is
//    absent, so a client picks its own "address" by sending one. Here the socket address is always APPENDED,
//    as a reverse proxy does, so the list ends with the TCP peer and lib/http/client-address.ts can count
//    TRUSTED_PROXY_HOPS from the right. With no trusted proxy, client-written X-Forwarded-Host/-Proto/-Port
//    are dropped (Next then fills them from the socket).
// 2. Security headers from configuration (lib/http/security-headers.ts) on every response, /api/auth/* too,
//    with a per-request CSP nonce that Next reads from the request's Content-Security-Policy header.
//
// Usage: node scripts/server.cjs [--dev]   (the launcher; PORT and the rest of the configuration from the environment)
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { env, githubOAuth, publicUrl } from '../lib/env';
import { problemBody } from '../lib/api/problem';
import { newRequestId } from '../lib/api/request-id';
import { payContentSecurityPolicy } from '../lib/http/pay-csp';
import { classifyRequestPath } from '../lib/http/request-path';
import { newNonce, securityHeaders, type SecurityHeaderOptions } from '../lib/http/security-headers';

type Handle = ReturnType<ReturnType<typeof next>['getRequestHandler']>;

function requestListener(handle: Handle, dev: boolean): http.RequestListener {
  const hops = env().TRUSTED_PROXY_HOPS;
  const headerOptions: SecurityHeaderOptions = {
    https: publicUrl().startsWith('https:'),
    dev,
    // next-auth's sign-in redirects a form post on to the provider's authorization page.
    formActionOrigins: githubOAuth() ? ['https://github.com'] : [],
  };
  const hsts = headerOptions.https ? securityHeaders('', headerOptions)['Strict-Transport-Security'] : undefined;
  return (req, res) => onRequest(req, res, { handle, hops, headerOptions, hsts });
}

function onRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  {
    handle,
    hops,
    headerOptions,
    hsts,
  }: { handle: Handle; hops: number; headerOptions: SecurityHeaderOptions; hsts: string | undefined },
): void {
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  req.headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${peer}` : peer;
  if (hops === 0) {
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-proto'];
    delete req.headers['x-forwarded-port'];
  }
  // Headers are decided on the normalised path; dot segments are refused (lib/http/request-path.ts).
  const decision = classifyRequestPath(req.url ?? '/');
  if ('refused' in decision) {
    const requestId = newRequestId();
    const body = problemBody(
      'path_not_normalized',
      'The path contains "." or ".." segments or a backslash. Send the normalised path.',
      requestId,
    );
    if (hsts) res.setHeader('Strict-Transport-Security', hsts);
    res.writeHead(400, {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      'Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(JSON.stringify(body));
    return;
  }
  if (decision.kind === 'api') {
    // The JSON API: no documents to protect with a CSP; HSTS still applies to the whole origin.
    if (hsts) res.setHeader('Strict-Transport-Security', hsts);
    res.setHeader('X-Content-Type-Options', 'nosniff');
  } else {
    const nonce = newNonce();
    const headers = securityHeaders(nonce, headerOptions);
    // The public hosted payment page (docs/hosted-page.md) gets its own stricter policy, and is never indexed.
    if (decision.kind === 'pay') {
      headers['Content-Security-Policy'] = payContentSecurityPolicy(nonce, headerOptions);
      headers['X-Robots-Tag'] = 'noindex, nofollow';
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    req.headers['content-security-policy'] = headers['Content-Security-Policy'];
  }
  handle(req, res).catch((error: unknown) => {
    console.error('[server] unhandled error', error instanceof Error ? error.message : error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
}

async function main(dev: boolean): Promise<void> {
  const port = env().PORT;
  const app = next({ dev, dir: path.resolve(__dirname, '..'), port, hostname: 'localhost' });
  await app.prepare();
  const server = http.createServer(requestListener(app.getRequestHandler(), dev));
  // Idle keep-alive connections live 65 s (Node's default is 5 s): a client or proxy that reuses a pooled
  // connection just as the server closes it gets "socket closed" instead of a response; with the server's
  // timeout longer than the client's (undici ≈ 4–60 s, load balancers 60 s), the client always closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(port, () => console.error(`[server] ${dev ? 'next dev' : 'next'} listening on port ${port}`));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      server.close();
      setTimeout(() => process.exit(0), 2_000).unref();
      void app.close().finally(() => process.exit(0));
    });
  }
}

export function startServer(dev: boolean): void {
  main(dev).catch((error: unknown) => {
    console.error('[server] could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
