/** Liveness probe: answers without touching the database (the benchmark's baseline route). */
export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
