import { rpcCallCounter } from '../evm/client';

/**
 * A client of TRON's Ethereum-compatible JSON-RPC (a java-tron full node's /jsonrpc, or a provider), limited to
 * what TRON documents and this watcher needs: eth_chainId, eth_blockNumber, eth_getBlockByNumber (numbers,
 * `latest`, `finalized` — never `pending` or `safe`, which TRON refuses), eth_getLogs (20-byte hex addresses, at
 * most 5,000 blocks) and eth_getTransactionReceipt. The URLs are tried in order (a failing one hands over to the
 * next); headers (RPC_HEADERS_TRON) go with every request and never into an error or a log.
 */

export type BlockTag = 'latest' | 'finalized';

export interface TronBlock {
  number: bigint;
  hash: string;
  /** Seconds. */
  timestamp: number;
}

export interface TronLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: bigint;
  blockHash: string;
  /** Seconds; TRON adds it to logs, older nodes may not. */
  blockTimestamp: number | null;
  transactionHash: string;
  logIndex: number;
  removed: boolean;
}

export interface TronReceipt {
  transactionHash: string;
  blockNumber: bigint;
  blockHash: string;
  /** 1 success, 0 failed (reverted, or out of energy). */
  status: number;
  logs: TronLog[];
}

export interface LogFilter {
  /** 0x + 40 hex each. */
  addresses: string[];
  topics: Array<string | null>;
  fromBlock: bigint;
  toBlock: bigint;
}

/** A JSON-RPC error the node answered (code and message as TRON documents them). */
export class TronRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (${code})`);
    this.name = 'TronRpcError';
  }

  /** The range (exceed max block range, -32602) or the result (more than 10,000 logs, -32005) is too large. */
  get rangeTooLarge(): boolean {
    return (
      /exceed max block range|too many|exceed|more than/i.test(this.message) &&
      (this.code === -32602 || this.code === -32005)
    );
  }
}

const hex = (value: bigint) => `0x${value.toString(16)}`;
const big = (value: unknown) => BigInt(String(value));
const num = (value: unknown) => Number(BigInt(String(value)));

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  blockTimestamp?: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

function toLog(raw: RawLog): TronLog {
  return {
    address: raw.address.toLowerCase(),
    topics: raw.topics.map((topic) => topic.toLowerCase()),
    data: raw.data,
    blockNumber: big(raw.blockNumber),
    blockHash: raw.blockHash.toLowerCase(),
    blockTimestamp: raw.blockTimestamp ? num(raw.blockTimestamp) : null,
    transactionHash: raw.transactionHash.toLowerCase(),
    logIndex: num(raw.logIndex),
    removed: raw.removed === true,
  };
}

export interface TronRpcOptions {
  urls: string[];
  headers?: Record<string, string>;
  /** Counted under this name in rpcCallCounter (the benchmark reads it). */
  network?: string;
  timeoutMs?: number;
}

export class TronRpc {
  private readonly urls: string[];
  private readonly headers: Record<string, string>;
  private readonly network: string;
  private readonly timeoutMs: number;
  private id = 0;

  constructor(options: TronRpcOptions) {
    if (options.urls.length === 0) throw new Error('no TRON JSON-RPC URL (RPC_URL_TRON)');
    this.urls = options.urls;
    this.headers = options.headers ?? {};
    this.network = options.network ?? 'tron';
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /**
   * One request: each URL in turn until one answers. A JSON-RPC error is the node's answer and is thrown as is;
   * a transport failure (refused, timeout, HTTP error) moves to the next URL. Messages name the host only.
   */
  async request<T>(method: string, params: unknown[]): Promise<T> {
    let lastFailure: Error | undefined;
    for (const url of this.urls) {
      rpcCallCounter.set(this.network, (rpcCallCounter.get(this.network) ?? 0) + 1);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { ...this.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        lastFailure = new Error(`${method}: ${new URL(url).host} did not answer (${(error as Error).name})`);
        continue;
      }
      if (!response.ok) {
        lastFailure = new Error(`${method}: ${new URL(url).host} answered HTTP ${response.status}`);
        continue;
      }
      const body = (await response.json().catch(() => null)) as {
        result?: T;
        error?: { code: number; message: string };
      } | null;
      if (!body) {
        lastFailure = new Error(`${method}: ${new URL(url).host} answered something that is not JSON`);
        continue;
      }
      if (body.error) throw new TronRpcError(method, body.error.code, String(body.error.message));
      return body.result as T;
    }
    throw lastFailure ?? new Error(`${method}: no RPC URL answered`);
  }

  async chainId(): Promise<number> {
    return num(await this.request<string>('eth_chainId', []));
  }

  async blockNumber(): Promise<bigint> {
    return big(await this.request<string>('eth_blockNumber', []));
  }

  /** A block's number, hash and time; null when the node has no such block (yet). */
  async block(at: bigint | BlockTag): Promise<TronBlock | null> {
    const raw = await this.request<{ number: string; hash: string; timestamp: string } | null>('eth_getBlockByNumber', [
      typeof at === 'bigint' ? hex(at) : at,
      false,
    ]);
    return raw ? { number: big(raw.number), hash: raw.hash.toLowerCase(), timestamp: num(raw.timestamp) } : null;
  }

  async logs(filter: LogFilter): Promise<TronLog[]> {
    const raw = await this.request<RawLog[]>('eth_getLogs', [
      {
        address: filter.addresses,
        topics: filter.topics,
        fromBlock: hex(filter.fromBlock),
        toBlock: hex(filter.toBlock),
      },
    ]);
    return raw.map(toLog);
  }

  /** Null when the node knows no such transaction (not included, or reorganised away). */
  async receipt(txHash: string): Promise<TronReceipt | null> {
    const raw = await this.request<{
      transactionHash: string;
      blockNumber: string;
      blockHash: string;
      status: string;
      logs: RawLog[];
    } | null>('eth_getTransactionReceipt', [txHash.startsWith('0x') ? txHash : `0x${txHash}`]);
    if (!raw) return null;
    return {
      transactionHash: raw.transactionHash.toLowerCase(),
      blockNumber: big(raw.blockNumber),
      blockHash: raw.blockHash.toLowerCase(),
      status: num(raw.status),
      logs: raw.logs.map(toLog),
    };
  }
}
