/** JSON answers of the hosted page's endpoints: never cached, never indexed. */
export function hostedJson(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex', ...headers },
  });
}
