import { createHash, timingSafeEqual } from 'node:crypto';
import { env } from '../env';
import { metrics } from './registry';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares a presented token with the configured one in constant time (by their digests, so lengths may differ). */
function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * GET /metrics: Prometheus text (docs/operations.md). Off — a plain 404, as if the route did not exist — unless
 * METRICS_TOKEN is set; then only `Authorization: Bearer <METRICS_TOKEN>` gets the figures (else 401).
 */
export function metricsRoute(): { GET: (request: Request) => Promise<Response> } {
  return {
    GET: async (request) => {
      const token = env().METRICS_TOKEN;
      if (!token)
        return new Response('Not Found\n', {
          status: 404,
          headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
        });
      const header = request.headers.get('authorization') ?? '';
      const presented = /^Bearer /i.test(header) ? header.slice(7).trim() : '';
      if (!presented || !tokenMatches(presented, token)) {
        return new Response('Unauthorized\n', {
          status: 401,
          headers: {
            'Content-Type': 'text/plain',
            'Cache-Control': 'no-store',
            'WWW-Authenticate': 'Bearer realm="metrics"',
          },
        });
      }
      const { registry, refresh } = metrics();
      await refresh();
      return new Response(await registry.metrics(), {
        headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
      });
    },
  };
}
