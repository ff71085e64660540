// A local TRON JSON-RPC: TRON's Ethereum-compatible /jsonrpc, as java-tron documents it
// (tronprotocol/documentation-en docs/api/json-rpc/), served over the local EVM node (scripts/chain/local-chain.ts).
// No TRON node runs offline; this façade refuses what TRON refuses, so a watcher that works against it does not
// lean on Ethereum-only behaviour. What it cannot model (energy, bandwidth, TRON-only transaction types, TRON's
// block and transaction hashing) is listed in docs/settlement.md.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** TRON's defaults (config.conf `jsonrpc {}` and LogBlockQuery). */
export const TRON_RULES = {
  /** Blocks per eth_getLogs (maxBlockRange). The façade counts blocks inclusively: stricter than or equal to TRON. */
  maxBlockRange: 5000,
  maxAddressSize: 1000,
  maxResults: 10_000,
  /** `finalized` answers the solidified block: the head minus this many blocks. */
  finalizedDepth: 19,
  maxBatchSize: 100,
} as const;

/** Methods TRON's /jsonrpc serves that the façade forwards (TRON-only buildTransaction and the filters are left out). */
const FORWARDED = new Set([
  'web3_clientVersion',
  'web3_sha3',
  'net_version',
  'net_listening',
  'net_peerCount',
  'eth_chainId',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getBlockReceipts',
  'eth_getBalance',
  'eth_getStorageAt',
  'eth_getCode',
  'eth_call',
  'eth_estimateGas',
  'eth_getLogs',
]);

/** Methods whose first parameter is a block number or tag (latest / earliest / finalized). */
const BLOCK_PARAM_FIRST = new Set([
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByBlockNumberAndIndex',
]);
/** Methods whose block parameter (the last) may only be `latest` on TRON. */
const LATEST_ONLY: Record<string, number> = { eth_getBalance: 1, eth_getCode: 1, eth_getStorageAt: 2, eth_call: 1 };

export interface FacadeCall {
  method: string;
  params: unknown[];
}

export interface FacadeRefusal extends FacadeCall {
  code: number;
  message: string;
}

export interface TronFacade {
  /** TRON's JSON-RPC: give it to the app as RPC_URL_TRON. */
  rpcUrl: string;
  /** The EVM node itself, for the local tools only (pay, mine, reorgs in tests): TRON has no such endpoint. */
  evmUrl: string;
  /** Every /jsonrpc request, in order; and those refused as TRON would. */
  calls: FacadeCall[];
  refusals: FacadeRefusal[];
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

async function upstream(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new Refusal(body.error.code ?? -32000, body.error.message);
  return body.result;
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;

/**
 * The TRON rules of a block parameter: `pending` and `safe` refused (-32602 TAG … not supported), `finalized`
 * answered with the solidified block (head − 19), numbers as hex only.
 */
async function resolveBlock(url: string, value: unknown, finalizedTag: boolean): Promise<string> {
  const tag = value === undefined || value === null ? 'latest' : value;
  if (tag === 'pending' || tag === 'safe') throw new Refusal(-32602, `TAG ${tag} not supported`);
  if (tag === 'latest' || tag === 'earliest') return tag;
  if (tag === 'finalized' && finalizedTag) {
    const head = BigInt((await upstream(url, 'eth_blockNumber', [])) as string);
    const solid = head > BigInt(TRON_RULES.finalizedDepth) ? head - BigInt(TRON_RULES.finalizedDepth) : 0n;
    return `0x${solid.toString(16)}`;
  }
  if (typeof tag === 'string' && HEX_QUANTITY.test(tag)) return tag;
  throw new Refusal(-32602, 'invalid block number');
}

async function blockNumberOf(url: string, resolved: string): Promise<bigint> {
  if (resolved === 'earliest') return 0n;
  if (resolved === 'latest') return BigInt((await upstream(url, 'eth_blockNumber', [])) as string);
  return BigInt(resolved);
}

/** A filter address as TRON takes it: 20-byte hex, or 21-byte starting 41, with or without 0x. Never base58. */
function filterAddress(value: unknown, index: number): string {
  const text = typeof value === 'string' ? value : '';
  const match = /^(?:0x)?(?:41)?([0-9a-fA-F]{40})$/.exec(text);
  if (!match) throw new Refusal(-32602, `invalid address at index ${index}: ${String(value)}`);
  return `0x${match[1]!.toLowerCase()}`;
}

async function getLogs(url: string, params: unknown[], finalizedTag: boolean): Promise<unknown> {
  const filter = (params[0] ?? {}) as {
    fromBlock?: unknown;
    toBlock?: unknown;
    blockHash?: unknown;
    address?: unknown;
    topics?: unknown;
  };
  const forwarded: Record<string, unknown> = {};
  if (filter.blockHash !== undefined && filter.blockHash !== null) {
    if (filter.fromBlock !== undefined || filter.toBlock !== undefined) {
      throw new Refusal(-32602, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    }
    if (typeof filter.blockHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(filter.blockHash))
      throw new Refusal(-32602, 'invalid hash value');
    forwarded.blockHash = filter.blockHash;
  } else {
    const from = await resolveBlock(url, filter.fromBlock, finalizedTag);
    const to = await resolveBlock(url, filter.toBlock, finalizedTag);
    const fromNumber = await blockNumberOf(url, from);
    const toNumber = await blockNumberOf(url, to);
    if (fromNumber > toNumber) throw new Refusal(-32602, 'please verify: fromBlock <= toBlock');
    if (toNumber - fromNumber + 1n > BigInt(TRON_RULES.maxBlockRange))
      throw new Refusal(-32602, `exceed max block range: ${TRON_RULES.maxBlockRange}`);
    forwarded.fromBlock = `0x${fromNumber.toString(16)}`;
    forwarded.toBlock = `0x${toNumber.toString(16)}`;
  }
  if (filter.address !== undefined && filter.address !== null) {
    const addresses = Array.isArray(filter.address) ? filter.address : [filter.address];
    if (addresses.length > TRON_RULES.maxAddressSize)
      throw new Refusal(-32602, `exceed max addresses: ${TRON_RULES.maxAddressSize}`);
    forwarded.address = addresses.map(filterAddress);
  }
  if (filter.topics !== undefined && filter.topics !== null) {
    if (!Array.isArray(filter.topics) || filter.topics.length > 4)
      throw new Refusal(-32602, 'topics size should be <= 4');
    forwarded.topics = filter.topics;
  }
  const logs = (await upstream(url, 'eth_getLogs', [forwarded])) as Array<Record<string, unknown>>;
  if (logs.length > TRON_RULES.maxResults)
    throw new Refusal(-32005, `query returned more than ${TRON_RULES.maxResults} results`);
  // TRON's logs carry their block's timestamp (seconds).
  const numbers = [...new Set(logs.map((log) => String(log.blockNumber)))];
  const blocks = (await Promise.all(
    numbers.map((number) => upstream(url, 'eth_getBlockByNumber', [number, false])),
  )) as Array<{ timestamp: string } | null>;
  const times = new Map(numbers.flatMap((number, i) => (blocks[i] ? [[number, blocks[i].timestamp] as const] : [])));
  return logs.map((log) => ({ ...log, blockTimestamp: times.get(String(log.blockNumber)) ?? '0x0' }));
}

async function answer(
  url: string,
  finalizedTag: boolean,
  request: RpcRequest,
  record: (call: FacadeCall, refusal?: FacadeRefusal) => void,
) {
  const id = request.id ?? null;
  const method = typeof request.method === 'string' ? request.method : '';
  const params = Array.isArray(request.params) ? request.params : [];
  try {
    let result: unknown;
    if (!method) throw new Refusal(-32600, 'invalid request');
    if (method === 'eth_accounts') result = [];
    else if (!FORWARDED.has(method)) throw new Refusal(-32601, `the method ${method} does not exist/is not available`);
    else if (method === 'eth_getLogs') result = await getLogs(url, params, finalizedTag);
    else if (BLOCK_PARAM_FIRST.has(method))
      result = await upstream(url, method, [await resolveBlock(url, params[0], finalizedTag), ...params.slice(1)]);
    else if (method in LATEST_ONLY) {
      const at = params[LATEST_ONLY[method]!];
      if (at !== undefined && at !== 'latest') {
        throw new Refusal(
          -32602,
          typeof at === 'string' && !HEX_QUANTITY.test(at)
            ? `TAG ${at} not supported`
            : 'QUANTITY not supported, just support TAG as latest',
        );
      }
      result = await upstream(url, method, params);
    } else result = await upstream(url, method, params);
    record({ method, params });
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    const code = error instanceof Refusal ? error.code : -32000;
    const message = error instanceof Error ? error.message : String(error);
    record({ method, params }, { method, params, code, message });
    return { jsonrpc: '2.0', id, error: { code, message, data: '{}' } };
  }
}

/**
 * Starts the façade on host:port (0 = a free port) over the EVM node at `upstreamUrl`. `finalizedTag: false`
 * models a java-tron older than the `finalized` tag (it answers -32602 "invalid block number"), for the watcher's
 * CONFIRMATIONS_TRON fallback.
 */
export async function startTronFacade(options: {
  upstreamUrl: string;
  port?: number;
  host?: string;
  finalizedTag?: boolean;
}): Promise<TronFacade> {
  const finalizedTag = options.finalizedTag ?? true;
  const calls: FacadeCall[] = [];
  const refusals: FacadeRefusal[] = [];
  const record = (call: FacadeCall, refusal?: FacadeRefusal) => {
    // `npm run chain` runs for hours: only the latest calls are kept.
    if (calls.length >= 100_000) calls.splice(0, 50_000);
    calls.push(call);
    if (refusal) refusals.push(refusal);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0];
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || (path !== '/jsonrpc' && path !== '/evm')) {
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('POST /jsonrpc (TRON JSON-RPC) or /evm (the local EVM node, tools only)\n');
        return;
      }
      if (path === '/evm') {
        const reply = await fetch(options.upstreamUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: raw,
        }).then((r) => r.text());
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
        return;
      }
      let body: RpcRequest | RpcRequest[];
      try {
        body = JSON.parse(raw) as RpcRequest | RpcRequest[];
      } catch {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'JSON parse error' } }));
        return;
      }
      let reply: unknown;
      if (Array.isArray(body)) {
        reply =
          body.length > TRON_RULES.maxBatchSize
            ? {
                jsonrpc: '2.0',
                id: null,
                error: { code: -32005, message: `batch size exceeds ${TRON_RULES.maxBatchSize}` },
              }
            : await Promise.all(body.map((request) => answer(options.upstreamUrl, finalizedTag, request, record)));
      } else reply = await answer(options.upstreamUrl, finalizedTag, body, record);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    rpcUrl: `${base}/jsonrpc`,
    evmUrl: `${base}/evm`,
    calls,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
