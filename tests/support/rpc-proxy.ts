import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC pass-through in front of the suite's hardhat node that counts the methods a client calls. With
 * `blockReceipts`, it also answers eth_getBlockReceipts — which mainnet nodes (geth, erigon, nethermind, reth)
 * and providers offer and hardhat does not — from the node's own data (the block's transaction hashes, then
 * each receipt), so the watcher's per-block receipt path runs against real chain data.
 */
export interface RpcProxy {
  url: string;
  calls: Map<string, number>;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc: '2.0';
  id: unknown;
  method: string;
  params?: unknown[];
}

async function upstream(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw Object.assign(new Error('upstream error'), { rpcError: body.error });
  return body.result;
}

export async function startRpcProxy(target: string, options: { blockReceipts: boolean }): Promise<RpcProxy> {
  const calls = new Map<string, number>();
  const answer = async (request: RpcRequest) => {
    calls.set(request.method, (calls.get(request.method) ?? 0) + 1);
    try {
      if (request.method === 'eth_getBlockReceipts' && options.blockReceipts) {
        const block = (await upstream(target, 'eth_getBlockByNumber', [request.params?.[0], false])) as {
          transactions: string[];
        } | null;
        const result = block
          ? await Promise.all(block.transactions.map((hash) => upstream(target, 'eth_getTransactionReceipt', [hash])))
          : null;
        return { jsonrpc: '2.0', id: request.id, result };
      }
      return { jsonrpc: '2.0', id: request.id, result: await upstream(target, request.method, request.params ?? []) };
    } catch (error) {
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: (error as { rpcError?: unknown }).rpcError ?? { code: -32603, message: String(error) },
      };
    }
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
      const reply = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
