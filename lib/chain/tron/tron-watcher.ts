import { CURRENCY_RULES, type Currency } from '../../invoices/currencies';
import { rpcUrls, tokenAddress } from '../networks';
import { fromBaseUnits, toBaseUnits } from '../payment-uri';
import {
  countConfirmations,
  pendingPayments,
  readCursor,
  recordTransfers,
  rewindCursor,
  type Cursor,
  applyRereads,
  type PendingPayment,
  type Reread,
  type Transfer,
} from '../settle';
import type { ChainWatcher, WatcherLog } from '../watcher';
import { tronToBase58, tronToHex } from './address';
import { TronRpc, TronRpcError, type TronLog } from './rpc';
import { tronChainId, tronConfirmations, tronConfirmationsSet, tronRpcHeaders } from './settings';
import { tronWalletAddresses } from './wallets';
import { blockSpans } from '../block-spans';

/** keccak256("Transfer(address,address,uint256)"): TRC-20 emits the ERC-20 event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** TRON refuses eth_getLogs over more blocks than this (maxBlockRange, -32602 "exceed max block range"). */
export const TRON_MAX_LOG_RANGE = 5000;

/** The currencies offered on tron (docs/api.md): TRC-20 tokens only, TRX itself is not a payment asset here. */
const TRC20_CURRENCIES = (Object.keys(CURRENCY_RULES) as Currency[]).filter(
  (currency) => currency !== 'ETH' && currency !== 'BTC' && CURRENCY_RULES[currency].networks.includes('tron'),
);

export interface TronWatcherOptions {
  /** Blocks per eth_getLogs call and per committed chunk (at most 5,000; halved while the node refuses). */
  maxRange?: number;
  /** Blocks scanned below the head on the very first start (no cursor yet). */
  initialLookback?: number;
  /** Called after each chunk commits (tests stop a watcher mid-range with it). */
  afterChunk?: (cursor: Cursor) => void | Promise<void>;
  log?: WatcherLog;
  rpc?: TronRpc;
}

export class TronChainIdMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly reported: number,
  ) {
    super(
      `refusing to watch tron: the RPC reports chain id 0x${reported.toString(16)}, CHAIN_ID_TRON is 0x${expected.toString(16)} (${expected})`,
    );
    this.name = 'TronChainIdMismatchError';
  }
}

/** TRON's txid as tronscan and wallets show it: 64 hex, no 0x. */
const txid = (hash: string) => hash.toLowerCase().replace(/^0x/, '');
const transferKey = (hash: string, logIndex: number) => `${txid(hash)}:${logIndex}`;
/** The address in an indexed topic (its last 20 bytes), as base58. */
const topicAddress = (topic: string) => tronToBase58(`0x${topic.slice(-40)}`);

/**
 * Watches Tron through TRON's Ethereum-compatible JSON-RPC: the Transfer logs of the configured TRC-20 contracts
 * (one eth_getLogs per range of up to 5,000 blocks, no per-wallet filter), matched to the Tron wallets in memory
 * and recorded through lib/chain/settle.ts, which alone attributes, confirms and reverts. RPC calls per range
 * are constant: the logs, and the range's last block read before and after them (the same hash both times
 * means no reorg touched the range while it was read); block times come with TRON's logs.
 */
export class TronWatcher implements ChainWatcher {
  readonly network = 'tron' as const;
  private readonly rpc: TronRpc;
  private readonly chainId: number;
  private readonly confirmations: number;
  /** 0x hex of each TRC-20 contract → its currency. */
  private readonly tokens = new Map<string, Currency>();
  private maxRange: number;
  /** Whether the node answers the `finalized` tag (learnt on first use). */
  private finalizedTag = true;
  private readonly options: TronWatcherOptions;

  constructor(options: TronWatcherOptions = {}) {
    this.options = options;
    this.rpc = options.rpc ?? new TronRpc({ urls: rpcUrls('tron'), headers: tronRpcHeaders(), network: 'tron' });
    this.chainId = tronChainId();
    this.confirmations = tronConfirmations();
    for (const currency of TRC20_CURRENCIES) {
      const address = tokenAddress(currency, 'tron');
      if (address) this.tokens.set(tronToHex(address), currency);
    }
    this.maxRange = Math.min(TRON_MAX_LOG_RANGE, Math.max(1, options.maxRange ?? TRON_MAX_LOG_RANGE));
  }

  /** Refuses a node of another chain (a Nile or local URL with mainnet settings would credit worthless tokens). */
  async verify(): Promise<void> {
    const reported = await this.rpc.chainId();
    if (reported !== this.chainId) throw new TronChainIdMismatchError(this.chainId, reported);
  }

  async tick(): Promise<void> {
    const head = await this.rpc.blockNumber();
    let cursor = await readCursor(this.network);
    if (!cursor) {
      const lookback = BigInt(this.options.initialLookback ?? 1000);
      const start = head > lookback ? head - lookback : 0n;
      cursor = { network: this.network, chainId: this.chainId, block: start, hash: await this.hashOf(start) };
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

  private async hashOf(number: bigint): Promise<string> {
    const block = await this.rpc.block(number);
    if (!block) throw new Error(`tron: the node has no block ${number} yet`);
    return block.hash;
  }

  /**
   * The block under the cursor has another hash (or the head is below it): back by the finality depth — below
   * it nothing can change — and re-check the pending payments above.
   */
  private async followReorg(cursor: Cursor, head: bigint): Promise<Cursor> {
    const current = cursor.block <= head ? await this.rpc.block(cursor.block) : null;
    if (current?.hash === cursor.hash) return cursor;
    const depth = BigInt(this.confirmations);
    const back = cursor.block > depth ? cursor.block - depth : 0n;
    const target = back < head ? back : head;
    const rewound = { ...cursor, block: target, hash: await this.hashOf(target) };
    this.options.log?.({
      level: 'warn',
      event: 'chain_reorg',
      network: this.network,
      from_block: String(cursor.block),
      to_block: String(target),
    });
    await rewindCursor(rewound);
    await this.applyRereads(await this.reread(await pendingPayments(this.network, { from: target + 1n })), false);
    return rewound;
  }

  /** Transfer logs of the watched contracts in from..to, halving the range while the node refuses it as too large. */
  private async transferLogs(from: bigint, to: bigint): Promise<TronLog[]> {
    if (this.tokens.size === 0) return [];
    try {
      return await this.rpc.logs({
        addresses: [...this.tokens.keys()],
        topics: [TRANSFER_TOPIC],
        fromBlock: from,
        toBlock: to,
      });
    } catch (error) {
      if (to <= from || !(error instanceof TronRpcError && error.rangeTooLarge)) throw error;
      const middle = from + (to - from) / 2n;
      this.maxRange = Math.max(1, Number(middle - from + 1n));
      return [...(await this.transferLogs(from, middle)), ...(await this.transferLogs(middle + 1n, to))];
    }
  }

  /** Reads blocks from..to and records their transfers with the new cursor, in one transaction (settle.ts). */
  private async scan(from: bigint, to: bigint): Promise<Cursor> {
    const before = await this.hashOf(to);
    const logs = await this.transferLogs(from, to);
    const after = await this.hashOf(to);
    if (before !== after) throw new Error(`tron: block ${to} changed while blocks ${from}..${to} were read`);
    // Recipients are matched in hex (the log's own form): no conversion for the many transfers to other accounts.
    const wallets = new Map(
      [...(await tronWalletAddresses())].map((address) => [tronToHex(address).slice(2), address]),
    );
    const times = new Map<bigint, number>();
    const transfers: Transfer[] = [];
    for (const log of logs) {
      const currency = this.tokens.get(log.address);
      if (!currency || log.removed || log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3) continue;
      const to_ = wallets.get(log.topics[2]!.slice(-40));
      const value = BigInt(log.data === '0x' ? 0 : log.data);
      // Zero-value transfers are address-poisoning spam, never a payment.
      if (!to_ || value === 0n) continue;
      if (log.blockNumber === to && log.blockHash !== after)
        throw new Error(`tron: block ${to} changed while being read`);
      let time = log.blockTimestamp ?? times.get(log.blockNumber);
      if (time === undefined) {
        // A node without blockTimestamp in its logs: the block is read, once.
        const block = await this.rpc.block(log.blockNumber);
        if (!block || block.hash !== log.blockHash)
          throw new Error(`tron: block ${log.blockNumber} changed while being read`);
        time = block.timestamp;
      }
      times.set(log.blockNumber, time);
      transfers.push({
        network: this.network,
        txHash: txid(log.transactionHash),
        logIndex: log.logIndex,
        currency,
        from: topicAddress(log.topics[1]!),
        to: to_,
        amount: fromBaseUnits(value, CURRENCY_RULES[currency].decimals),
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        blockTime: new Date(time * 1000),
      });
    }
    const cursor = { network: this.network, chainId: this.chainId, block: to, hash: after };
    await recordTransfers(transfers, cursor);
    return cursor;
  }

  /**
   * The highest final block: the node's `finalized` (solidified) block, and where the node has no such tag —
   * or CONFIRMATIONS_TRON is set — no higher than the head minus those confirmations. Never `safe` or `pending`.
   */
  private async finalBlock(head: bigint): Promise<bigint> {
    const byDepth = head + 1n - BigInt(this.confirmations);
    if (this.finalizedTag) {
      try {
        const finalized = await this.rpc.block('finalized');
        if (finalized) {
          const solid = finalized.number < head ? finalized.number : head;
          return tronConfirmationsSet() && byDepth < solid ? byDepth : solid;
        }
      } catch (error) {
        if (!(error instanceof TronRpcError && (error.code === -32602 || error.code === -32601))) throw error;
        this.finalizedTag = false;
        this.options.log?.({
          level: 'warn',
          event: 'tron_no_finalized_tag',
          network: this.network,
          confirmations: this.confirmations,
        });
      }
    }
    return byDepth;
  }

  /** Pending payments at or below the final block: re-read (same block) before they count, then confirmed together. */
  private async settlePending(head: bigint): Promise<void> {
    const due = await this.finalBlock(head);
    if (due < 0n) return;
    const payments = await pendingPayments(this.network, { to: due });
    if (payments.length > 0) await this.applyRereads(await this.reread(payments), true);
  }

  /** Settles what re-reading found, by the one rule in lib/chain/settle.ts (confirm only once due). */
  private applyRereads(verdicts: Map<PendingPayment, Reread>, confirm: boolean): Promise<void> {
    return applyRereads(
      this.network,
      verdicts,
      confirm ? { confirmations: this.confirmations } : null,
      this.options.log,
    );
  }

  /**
   * Re-reads pending payments: their Transfer logs again, one eth_getLogs per span of blocks (a log exists only
   * for a successful transaction, so the same log in a block of the same hash is the receipt re-read); whatever
   * is not found there, its receipt: none or failed → gone, another block → moved, same block → same.
   */
  private async reread(payments: PendingPayment[]): Promise<Map<PendingPayment, Reread>> {
    const verdicts = new Map<PendingPayment, Reread>();
    for (const [from, to] of blockSpans(
      payments.map((payment) => payment.blockNumber),
      this.maxRange,
    )) {
      const logs = await this.transferLogs(from, to);
      const found = new Map(
        logs
          .filter((log) => !log.removed)
          .map((log) => [transferKey(log.transactionHash, log.logIndex), log.blockHash]),
      );
      for (const payment of payments) {
        if (payment.blockNumber < from || payment.blockNumber > to) continue;
        if (found.get(transferKey(payment.txHash, payment.logIndex)) === payment.blockHash)
          verdicts.set(payment, { kind: 'same' });
      }
    }
    const rest = payments.filter((payment) => !verdicts.has(payment));
    for (let i = 0; i < rest.length; i += 20) {
      const chunk = rest.slice(i, i + 20);
      const read = await Promise.all(chunk.map((payment) => this.receiptOf(payment)));
      chunk.forEach((payment, index) => verdicts.set(payment, read[index]!));
    }
    return verdicts;
  }

  private async receiptOf(payment: PendingPayment): Promise<Reread> {
    const receipt = await this.rpc.receipt(payment.txHash);
    if (!receipt || receipt.status !== 1) return { kind: 'gone' };
    if (receipt.blockHash === payment.blockHash) return { kind: 'same' };
    // Re-included elsewhere: the same Transfer (contract, from, to, amount) in its receipt, nearest the old index.
    const units = toBaseUnits(payment.amount, CURRENCY_RULES[payment.currency as Currency].decimals);
    const candidates = receipt.logs.filter(
      (log) =>
        this.tokens.get(log.address) === payment.currency &&
        log.topics[0] === TRANSFER_TOPIC &&
        log.topics.length === 3 &&
        topicAddress(log.topics[1]!) === payment.fromAddress &&
        topicAddress(log.topics[2]!) === payment.toAddress &&
        BigInt(log.data) === units,
    );
    if (candidates.length === 0) return { kind: 'gone' };
    const nearest = candidates.reduce((best, log) =>
      Math.abs(log.logIndex - payment.logIndex) < Math.abs(best.logIndex - payment.logIndex) ? log : best,
    );
    return { kind: 'moved', number: receipt.blockNumber, hash: receipt.blockHash, logIndex: nearest.logIndex };
  }
}
