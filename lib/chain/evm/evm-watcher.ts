import {
  BaseError,
  getAddress,
  parseAbiItem,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type GetLogsReturnType,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { WatcherPass } from '../watcher-status';
import { CURRENCY_RULES, type Currency } from '../../invoices/currencies';
import { fromBaseUnits, toBaseUnits } from '../payment-uri';
import {
  chainId as configuredChainId,
  confirmations as configuredConfirmations,
  rpcUrls,
  tokenAddress,
  type EvmNetwork,
} from '../networks';
import {
  countConfirmations,
  pendingPayments,
  readCursor,
  recordTransfers,
  rewindCursor,
  watchedAddresses,
  type Cursor,
  applyRereads,
  type PendingPayment,
  type Reread,
  type Transfer,
} from '../settle';
import type { ChainWatcher, WatcherLog } from '../watcher';
import { evmClient } from './client';
import { blockSpans } from '../block-spans';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** The currencies of docs/api.md that are ERC-20 tokens on EVM networks, and the native one. */
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
    super(
      `refusing to watch ${network}: the RPC reports chain id ${reported}, CHAIN_ID_${network.toUpperCase()} is ${expected}`,
    );
    this.name = 'ChainIdMismatchError';
  }
}

/** A JSON-RPC error that says the block range (or result) of getLogs is too large. */
function isRangeTooLarge(error: unknown): boolean {
  const text =
    error instanceof Error
      ? `${error.message} ${String((error as { details?: unknown }).details ?? '')}`
      : String(error);
  return /range|too many|limit exceeded|response size|10000 results|query returned more than/i.test(text);
}

/** A JSON-RPC error that says the node does not offer the method (hardhat has no eth_getBlockReceipts). */
function isUnsupportedMethod(error: unknown): boolean {
  const codes = new Set<number>();
  if (error instanceof BaseError) {
    error.walk((cause) => {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'number') codes.add(code);
      return false;
    });
  }
  // -32601 method not found (JSON-RPC), -32004 method not supported (EIP-1474).
  return (
    codes.has(-32601) ||
    codes.has(-32004) ||
    /method .*(not (found|supported|available)|does not exist)|unsupported method/i.test(
      String((error as Error)?.message),
    )
  );
}

const transferKey = (txHash: string, logIndex: number) => `${txHash.toLowerCase()}:${logIndex}`;

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
  /** Whether the RPC offers eth_getBlockReceipts (learnt on first use; hardhat does not). */
  private blockReceipts = true;
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
  async tick(): Promise<WatcherPass> {
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    let cursor = await readCursor(this.network);
    if (!cursor) {
      const start =
        head > BigInt(this.options.initialLookback ?? 1000) ? head - BigInt(this.options.initialLookback ?? 1000) : 0n;
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
    return { headBlock: head, scannedBlock: cursor.block };
  }

  /**
   * The scanned chain changed under the cursor (its block has another hash, or the head is below it): move
   * the cursor back by the confirmation depth — a payment deeper than that is final by definition — and
   * re-check the pending payments above it (their receipts tell whether they are still in the chain).
   */
  private async followReorg(cursor: Cursor, head: bigint): Promise<Cursor> {
    const current =
      cursor.block <= head ? await this.client.getBlock({ blockNumber: cursor.block }).catch(() => null) : null;
    if (current?.hash === cursor.hash) return cursor;
    const depth = BigInt(this.confirmations);
    const back = cursor.block > depth ? cursor.block - depth : 0n;
    const target = back < head ? back : head;
    const block = await this.client.getBlock({ blockNumber: target });
    const rewound = { ...cursor, block: target, hash: block.hash };
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

  /** Reads blocks from..to and records their transfers and the new cursor in one transaction. */
  private async scan(from: bigint, to: bigint): Promise<Cursor> {
    let logs;
    try {
      logs = this.tokens.size
        ? await this.client.getLogs({
            address: [...this.tokens.keys()] as `0x${string}`[],
            event: TRANSFER,
            fromBlock: from,
            toBlock: to,
          })
        : [];
    } catch (error) {
      if (to > from && isRangeTooLarge(error)) {
        this.maxRange = Math.max(1, Math.floor(Number(to - from + 1n) / 2));
        return this.scan(from, from + BigInt(this.maxRange) - 1n);
      }
      throw error;
    }
    const wallets = await watchedAddresses(this.network);
    const blocks = new Map<
      bigint,
      {
        hash: string;
        time: Date;
        transactions: Array<{ hash: string; from: string; to: string | null; value: bigint }>;
      }
    >();
    // Every block of the range is read once (with its transactions where ETH is watched): its hash and time.
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const read = await Promise.all(
      numbers.map((blockNumber) => this.client.getBlock({ blockNumber, includeTransactions: this.native })),
    );
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
      // Zero-value transfers are skipped: address-poisoning spam, never a payment.
      if (!to_ || !currency || !wallets.has(to_) || !block || log.removed || !log.args.value) continue;
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

  /**
   * Pending payments with enough confirmations: re-read (same block, success) before they count, then
   * confirmed together in one transaction; those gone are reverted, those moved followed.
   */
  private async settlePending(head: bigint): Promise<void> {
    const due = head + 1n - BigInt(this.confirmations);
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
   * Re-reads pending payments on the canonical chain, with RPC calls per block rather than per payment:
   * 1. token payments: their Transfer logs read again (one getLogs per span of blocks). A log exists only in
   *    the receipt of a successful transaction, so the same log in a block of the same hash is the receipt
   *    re-read: included there, and succeeded;
   * 2. native payments: the receipts of their blocks (one eth_getBlockReceipts per block, where the node has it);
   * 3. whatever is left — moved or gone after a reorg, or a node without eth_getBlockReceipts — the
   *    transaction's own receipt: none or failed → gone, another block → moved, same block and success → same.
   */
  private async reread(payments: PendingPayment[]): Promise<Map<PendingPayment, Reread>> {
    const verdicts = new Map<PendingPayment, Reread>();
    const tokenPayments = payments.filter((payment) => payment.logIndex >= 0);
    if (tokenPayments.length > 0 && this.tokens.size > 0) {
      for (const [from, to] of blockSpans(
        tokenPayments.map((payment) => payment.blockNumber),
        this.maxRange,
      )) {
        const logs = await this.transferLogs(from, to);
        const found = new Map(
          logs
            .filter((log) => !log.removed)
            .map((log) => [transferKey(log.transactionHash!, log.logIndex!), log.blockHash]),
        );
        for (const payment of tokenPayments) {
          if (payment.blockNumber < from || payment.blockNumber > to) continue;
          if (found.get(transferKey(payment.txHash, payment.logIndex)) === payment.blockHash)
            verdicts.set(payment, { kind: 'same' });
        }
      }
    }
    const native = payments.filter((payment) => payment.logIndex < 0);
    for (const blockNumber of new Set(native.map((payment) => payment.blockNumber))) {
      if (!this.blockReceipts) break;
      let receipts;
      try {
        receipts = await this.client.getBlockReceipts({ blockNumber });
      } catch (error) {
        if (!isUnsupportedMethod(error)) throw error;
        this.blockReceipts = false;
        break;
      }
      const byHash = new Map(receipts.map((receipt) => [receipt.transactionHash.toLowerCase(), receipt]));
      for (const payment of native) {
        const receipt = payment.blockNumber === blockNumber ? byHash.get(payment.txHash.toLowerCase()) : undefined;
        if (receipt?.blockHash === payment.blockHash)
          verdicts.set(payment, receipt.status === 'success' ? { kind: 'same' } : { kind: 'gone' });
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
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash: payment.txHash as `0x${string}` });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      return { kind: 'gone' };
    }
    if (receipt.status !== 'success') return { kind: 'gone' };
    if (receipt.blockHash === payment.blockHash) return { kind: 'same' };
    const logIndex = payment.logIndex < 0 ? -1 : this.transferIndexIn(receipt, payment);
    // The re-included transaction no longer makes this transfer (it ran differently): the payment is gone.
    if (logIndex === null) return { kind: 'gone' };
    return { kind: 'moved', number: receipt.blockNumber, hash: receipt.blockHash, logIndex };
  }

  /**
   * The log index, in a re-included transaction's receipt, of the Transfer a payment recorded: same token, from,
   * to and amount. (A transfer's index is its position in the block, so it changes when the transaction moves.)
   * Of several identical transfers in one transaction, the one nearest the old index is taken.
   */
  private transferIndexIn(receipt: TransactionReceipt, payment: PendingPayment): number | null {
    const decimals = CURRENCY_RULES[payment.currency as Currency].decimals;
    const units = toBaseUnits(payment.amount, decimals);
    const candidates = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs, strict: true }).filter(
      (log) =>
        this.tokens.get(log.address.toLowerCase()) === payment.currency &&
        log.args.to.toLowerCase() === payment.toAddress.toLowerCase() &&
        getAddress(log.args.from) === getAddress(payment.fromAddress) &&
        log.args.value === units,
    );
    if (candidates.length === 0) return null;
    const nearest = candidates.reduce((best, log) =>
      Math.abs(log.logIndex - payment.logIndex) < Math.abs(best.logIndex - payment.logIndex) ? log : best,
    );
    return nearest.logIndex;
  }

  /** Transfer logs of the watched tokens in from..to, halving the range while the RPC refuses it as too large. */
  private async transferLogs(from: bigint, to: bigint): Promise<GetLogsReturnType<typeof TRANSFER>> {
    try {
      return await this.client.getLogs({
        address: [...this.tokens.keys()] as `0x${string}`[],
        event: TRANSFER,
        fromBlock: from,
        toBlock: to,
      });
    } catch (error) {
      if (to <= from || !isRangeTooLarge(error)) throw error;
      const middle = from + (to - from) / 2n;
      this.maxRange = Math.max(1, Number(middle - from + 1n));
      return [...(await this.transferLogs(from, middle)), ...(await this.transferLogs(middle + 1n, to))];
    }
  }
}
