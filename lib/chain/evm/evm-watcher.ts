import { getAddress, parseAbiItem, TransactionReceiptNotFoundError, type PublicClient } from 'viem';
import { CURRENCY_RULES, type Currency } from '../../invoices/currencies';
import { fromBaseUnits } from '../payment-uri';
import { chainId as configuredChainId, confirmations as configuredConfirmations, rpcUrls, tokenAddress, type EvmNetwork } from '../networks';
import {
  confirmPayment,
  countConfirmations,
  movePendingPayment,
  pendingPayments,
  readCursor,
  recordTransfers,
  revertPayment,
  rewindCursor,
  watchedAddresses,
  type Cursor,
  type Transfer,
} from '../settle';
import type { ChainWatcher, WatcherLog } from '../watcher';
import { evmClient } from './client';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** The currencies of SPEC §3.4 that are ERC-20 tokens on EVM networks, and the native one. */
const TOKEN_CURRENCIES = ['USDT', 'USDC'] as const satisfies readonly Currency[];

export interface EvmWatcherOptions {
  /** Blocks per getLogs call and per committed chunk (halved while the RPC refuses the range). */
  maxRange?: number;
  /** Blocks scanned from below the head on the very first start (no cursor yet). */
  initialLookback?: number;
  /** Called after each chunk commits (tests stop a watcher mid-range with it). */
  afterChunk?: (cursor: Cursor) => void | Promise<void>;
  log?: WatcherLog;
  client?: PublicClient;
}

export class ChainIdMismatchError extends Error {
  constructor(
    readonly network: string,
    readonly expected: number,
    readonly reported: number,
  ) {
    super(`refusing to watch ${network}: the RPC reports chain id ${reported}, CHAIN_ID_${network.toUpperCase()} is ${expected}`);
    this.name = 'ChainIdMismatchError';
  }
}

/** A JSON-RPC error that says the block range (or result) of getLogs is too large. */
function isRangeTooLarge(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { details?: unknown }).details ?? '')}` : String(error);
  return /range|too many|limit exceeded|response size|10000 results|query returned more than/i.test(text);
}

/**
 * Watches one EVM network: ERC-20 Transfer logs of the configured token contracts only (one getLogs per range
 * for all tokens, no per-wallet filter) and native ETH sent by transactions whose `to` is a wallet (one block
 * read per block, with its transactions where ETH is an asset). RPC calls per block are therefore constant,
 * whatever the number of invoices or wallets; wallets and amounts are matched in PostgreSQL.
 */
export class EvmWatcher implements ChainWatcher {
  readonly network: EvmNetwork;
  private readonly client: PublicClient;
  private readonly chainId: number;
  private readonly confirmations: number;
  private readonly tokens: Map<string, Currency>;
  private readonly native: boolean;
  private maxRange: number;
  private readonly options: EvmWatcherOptions;

  constructor(network: EvmNetwork, options: EvmWatcherOptions = {}) {
    this.network = network;
    this.options = options;
    this.client = options.client ?? evmClient(network, rpcUrls(network));
    this.chainId = configuredChainId(network);
    this.confirmations = Math.max(1, configuredConfirmations(network));
    this.tokens = new Map();
    for (const currency of TOKEN_CURRENCIES) {
      if (!CURRENCY_RULES[currency].networks.includes(network)) continue;
      const address = tokenAddress(currency, network);
      if (address) this.tokens.set(address.toLowerCase(), currency);
    }
    this.native = CURRENCY_RULES.ETH.networks.includes(network);
    this.maxRange = options.maxRange ?? 500;
  }

  /** Refuses an RPC that reports another chain than configured (a wrong URL would credit fake transfers). */
  async verify(): Promise<void> {
    const reported = await this.client.getChainId();
    if (reported !== this.chainId) throw new ChainIdMismatchError(this.network, this.chainId, reported);
  }

  /** One pass: follow a reorg, record new blocks up to the head, then confirm or revert pending payments. */
  async tick(): Promise<void> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    let cursor = await readCursor(this.network);
    if (!cursor) {
      const start = head > BigInt(this.options.initialLookback ?? 1000) ? head - BigInt(this.options.initialLookback ?? 1000) : 0n;
      const block = await this.client.getBlock({ blockNumber: start });
      cursor = { network: this.network, chainId: this.chainId, block: start, hash: block.hash };
      await recordTransfers([], cursor);
    }
    cursor = await this.followReorg(cursor, head);
    while (cursor.block < head) {
      const to = cursor.block + BigInt(this.maxRange) < head ? cursor.block + BigInt(this.maxRange) : head;
      cursor = await this.scan(cursor.block + 1n, to);
      await this.options.afterChunk?.(cursor);
    }
    await countConfirmations(this.network, head);
    await this.settlePending(head);
  }

  /**
   * The scanned chain changed under the cursor (its block has another hash, or the head is below it): move
   * the cursor back by the confirmation depth — a payment deeper than that is final by definition — and
   * re-check the pending payments above it (their receipts tell whether they are still in the chain).
   */
  private async followReorg(cursor: Cursor, head: bigint): Promise<Cursor> {
    const current = cursor.block <= head ? await this.client.getBlock({ blockNumber: cursor.block }).catch(() => null) : null;
    if (current?.hash === cursor.hash) return cursor;
    const depth = BigInt(this.confirmations);
    const back = cursor.block > depth ? cursor.block - depth : 0n;
    const target = back < head ? back : head;
    const block = await this.client.getBlock({ blockNumber: target });
    const rewound = { ...cursor, block: target, hash: block.hash };
    this.options.log?.({ level: 'warn', event: 'chain_reorg', network: this.network, from_block: String(cursor.block), to_block: String(target) });
    await rewindCursor(rewound);
    for (const payment of await pendingPayments(this.network, target + 1n)) await this.recheck(payment, null);
    return rewound;
  }

  /** Reads blocks from..to and records their transfers and the new cursor in one transaction. */
  private async scan(from: bigint, to: bigint): Promise<Cursor> {
    let logs;
    try {
      logs = this.tokens.size
        ? await this.client.getLogs({ address: [...this.tokens.keys()] as `0x${string}`[], event: TRANSFER, fromBlock: from, toBlock: to })
        : [];
    } catch (error) {
      if (to > from && isRangeTooLarge(error)) {
        this.maxRange = Math.max(1, Math.floor(Number(to - from + 1n) / 2));
        return this.scan(from, from + BigInt(this.maxRange) - 1n);
      }
      throw error;
    }
    const wallets = await watchedAddresses(this.network);
    const blocks = new Map<bigint, { hash: string; time: Date; transactions: Array<{ hash: string; from: string; to: string | null; value: bigint }> }>();
    // Every block of the range is read once (with its transactions where ETH is watched): its hash and time.
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const read = await Promise.all(numbers.map((blockNumber) => this.client.getBlock({ blockNumber, includeTransactions: this.native })));
    for (const block of read) {
      const transactions = this.native
        ? (block.transactions as Array<{ hash: string; from: string; to: string | null; value: bigint }>)
        : [];
      blocks.set(block.number!, { hash: block.hash!, time: new Date(Number(block.timestamp) * 1000), transactions });
    }
    const transfers: Transfer[] = [];
    for (const log of logs) {
      const to_ = log.args.to?.toLowerCase();
      const currency = this.tokens.get(log.address.toLowerCase());
      const block = blocks.get(log.blockNumber!);
      if (!to_ || !currency || !wallets.has(to_) || !block || log.removed) continue;
      if (block.hash !== log.blockHash) throw new Error(`block ${log.blockNumber} changed while being read`);
      transfers.push({
        network: this.network,
        txHash: log.transactionHash!,
        logIndex: log.logIndex!,
        currency,
        from: getAddress(log.args.from!),
        to: to_,
        amount: fromBaseUnits(log.args.value!, CURRENCY_RULES[currency].decimals),
        blockNumber: log.blockNumber!,
        blockHash: log.blockHash!,
        blockTime: block.time,
      });
    }
    for (const [number, block] of blocks) {
      for (const tx of block.transactions) {
        const to_ = tx.to?.toLowerCase();
        if (!to_ || tx.value === 0n || !wallets.has(to_)) continue;
        transfers.push({
          network: this.network,
          txHash: tx.hash,
          logIndex: -1,
          currency: 'ETH',
          from: getAddress(tx.from),
          to: to_,
          amount: fromBaseUnits(tx.value, CURRENCY_RULES.ETH.decimals),
          blockNumber: number,
          blockHash: block.hash,
          blockTime: block.time,
        });
      }
    }
    const cursor = { network: this.network, chainId: this.chainId, block: to, hash: blocks.get(to)!.hash };
    await recordTransfers(transfers, cursor);
    return cursor;
  }

  /** Pending payments with enough confirmations: the receipt is re-read before they count. */
  private async settlePending(head: bigint): Promise<void> {
    const due = head + 1n - BigInt(this.confirmations);
    for (const payment of await pendingPayments(this.network)) {
      if (payment.blockNumber > due) break;
      await this.recheck(payment, head);
    }
  }

  /**
   * Re-reads a pending payment's receipt. Same block and success: confirmed (when `head` is given and deep
   * enough). Gone, or failed: reverted. In another block: followed there, still pending.
   */
  private async recheck(payment: { id: string; txHash: string; blockNumber: bigint; blockHash: string }, head: bigint | null): Promise<void> {
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash: payment.txHash as `0x${string}` });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      receipt = null;
    }
    if (!receipt || receipt.status !== 'success') {
      this.options.log?.({ level: 'warn', event: 'payment_reverted', network: this.network, tx_hash: payment.txHash });
      await revertPayment(payment.id);
      return;
    }
    if (receipt.blockHash !== payment.blockHash) {
      await movePendingPayment(payment.id, { number: receipt.blockNumber, hash: receipt.blockHash });
      return;
    }
    if (head !== null && head - receipt.blockNumber + 1n >= BigInt(this.confirmations)) {
      await confirmPayment(payment.id, this.confirmations);
    }
  }
}
