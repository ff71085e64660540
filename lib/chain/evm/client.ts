import { createPublicClient, fallback, http, type PublicClient } from 'viem';

/** JSON-RPC requests made, per network: the benchmark and the tests read it (calls per block stay O(1)). */
export const rpcCallCounter = new Map<string, number>();

/**
 * A viem public client over the network's RPC URLs: the first answers, the others take over when it fails
 * (viem's fallback transport). Each JSON-RPC request is counted. viem retries a failed request itself (3 times,
 * exponential back-off from 150 ms); the watcher backs off further between passes.
 */
export function evmClient(network: string, urls: string[]): PublicClient {
  const count = () => rpcCallCounter.set(network, (rpcCallCounter.get(network) ?? 0) + 1);
  const transports = urls.map((url) =>
    http(url, {
      timeout: 15_000,
      retryCount: 2,
      onFetchRequest: async (request) => {
        const body = (await request.clone().json()) as unknown;
        for (let i = 0; i < (Array.isArray(body) ? body.length : 1); i++) count();
      },
    }),
  );
  return createPublicClient({
    transport: transports.length === 1 ? transports[0]! : fallback(transports, { rank: false }),
  });
}
