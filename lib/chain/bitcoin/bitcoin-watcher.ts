import { env } from '../../env';
import { rpcUrls } from '../networks';
import {
  applyRereads,
  countConfirmations,
  pendingMempoolPayments,
  pendingPayments,
  readCursor,
  recordTransfers,
  revertPayments,
  rewindCursor,
  type Cursor,
  type PendingPayment,
  type Reread,
  type Transfer,
} from '../settle';
import type { ChainWatcher, WatcherLog } from '../watcher';
import { invoiceAddressesByScript } from './addresses';
import { bitcoinChain, bitcoinConfirmations, CORE_CHAIN_NAME, type BitcoinChain } from './chain';
import { BitcoinRpc, parseHeaders } from './rpc';

/** Bitcoin Core's getblock <hash> 2 and getrawtransaction <txid> true, the fields read (amounts exact strings). */
interface CoreTransaction {
  txid: string;
  vout: Array<{ value: string; n: number; scriptPubKey: { hex: string } }>;
}
interface CoreBlock {
  hash: string;
  height: number;
  time: number;
  tx: CoreTransaction[];
}

/** The cursor's chain_id column: which Bitcoin chain the cursor's blocks belong to. */
const CURSOR_CHAIN_IDS: Record<BitcoinChain, number> = { main: 0, test: 1, regtest: 2 };

export interface BitcoinWatcherOptions {
  /** Blocks scanned from below the head on the very first start (no cursor yet). */
  initialLookback?: number;
  /** Blocks per committed chunk. */
  maxRange?: number;
  /** Called after each chunk commits (tests stop a watcher mid-range with it). */
  afterChunk?: (cursor: Cursor) => void | Promise<void>;
  log?: WatcherLog;
  rpc?: BitcoinRpc;
}

export class BitcoinChainMismatchError extends Error {
  constructor(expected: string, reported: string) {
    super(`refusing to watch bitcoin: the RPC reports chain "${reported}", BITCOIN_CHAIN is ${expected}`);
    this.name = 'BitcoinChainMismatchError';
  }
}

/**
 * Watches Bitcoin through Bitcoin Core's JSON-RPC (docs/settlement.md): every output of every new block
 * (getblockhash + getblock <hash> 2 per block) and of every new mempool transaction (getrawmempool, then
 * getrawtransaction for the transactions not seen before, batched) is matched by its scriptPubKey against the
 * invoices' addresses in one indexed query per block or batch. RPC calls therefore grow with blocks and mempool
 * transactions, never with invoices. It only reads: recording, attribution, confirmations, reverts and events
 * are lib/chain/settle.ts's, shared with the other networks.
 */
export class BitcoinWatcher implements ChainWatcher {
  readonly network = 'bitcoin';
  private readonly rpc: BitcoinRpc;
  private readonly chain: BitcoinChain;
  private readonly confirmations: number;
  private readonly options: BitcoinWatcherOptions;
  /** Mempool transactions already read (their outputs matched): read again only after leaving the mempool. */
  private seenInMempool = new Set<string>();

  constructor(options: BitcoinWatcherOptions = {}) {
    this.options = options;
    this.rpc = options.rpc ?? new BitcoinRpc(rpcUrls('bitcoin'), parseHeaders(env().RPC_HEADERS_BITCOIN));
    this.chain = bitcoinChain();
    this.confirmations = bitcoinConfirmations();
  }

  /** Refuses a node of another chain than BITCOIN_CHAIN (its blocks would credit payments that never happened). */
  async verify(): Promise<void> {
    const info = (await this.rpc.call('getblockchaininfo')) as { chain: string };
    if (info.chain !== CORE_CHAIN_NAME[this.chain]) throw new BitcoinChainMismatchError(this.chain, info.chain);
  }

  /**
   * One pass. The mempool is read first: a transaction missing from it afterwards was either mined before the
   * head read next (and the block scan finds it) or dropped. Then: follow a reorg, record new blocks up to the
   * head, record new mempool payments, revert mempool payments that left without a block, confirm or revert the
   * payments deep enough.
   */
  async tick(): Promise<void> {
    const mempool = new Set((await this.rpc.call('getrawmempool')) as string[]);
    const head = ((await this.rpc.call('getblockchaininfo')) as { blocks: number }).blocks;
    let cursor = await readCursor(this.network);
    if (!cursor || cursor.chainId !== CURSOR_CHAIN_IDS[this.chain]) {
      const lookback = this.options.initialLookback ?? 144;
      const start = Math.max(0, head - lookback);
      cursor = {
        network: this.network,
        chainId: CURSOR_CHAIN_IDS[this.chain],
        block: BigInt(start),
        hash: (await this.rpc.call('getblockhash', [start])) as string,
      };
      await recordTransfers([], cursor);
    }
    cursor = await this.followReorg(cursor, head);
    const maxRange = this.options.maxRange ?? 20;
    while (cursor.block < BigInt(head)) {
      const to = Math.min(head, Number(cursor.block) + maxRange);
      cursor = await this.scan(Number(cursor.block) + 1, to);
      await this.options.afterChunk?.(cursor);
    }
    await this.scanMempool(mempool, cursor);
    await countConfirmations(this.network, BigInt(head));
    await this.settlePending(head);
  }

  /**
   * The block under the cursor is no longer the chain's (a reorg): move the cursor back by the confirmation depth
   * (a deeper payment is final by definition) and re-check the payments above it.
   */
  private async followReorg(cursor: Cursor, head: number): Promise<Cursor> {
    const current =
      cursor.block <= BigInt(head)
        ? await this.rpc.call('getblockhash', [Number(cursor.block)]).catch(() => null)
        : null;
    if (current === cursor.hash) return cursor;
    const back = Math.max(0, Math.min(head, Number(cursor.block) - this.confirmations));
    const rewound = { ...cursor, block: BigInt(back), hash: (await this.rpc.call('getblockhash', [back])) as string };
    this.options.log?.({
      level: 'warn',
      event: 'chain_reorg',
      network: this.network,
      from_block: String(cursor.block),
      to_block: String(back),
    });
    await rewindCursor(rewound);
    // Pending payments in blocks above the new cursor: those whose block left the chain are reverted (rescanning
    // records them again where the transaction now is: another block, or the mempool).
    await this.revertOrphaned(await pendingPayments(this.network, { from: BigInt(back + 1) }));
    return rewound;
  }

  /** Reads blocks from..to and records their payments and the new cursor in one transaction. */
  private async scan(from: number, to: number): Promise<Cursor> {
    const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const hashes = await this.batch<string>(heights.map((height) => ({ method: 'getblockhash', params: [height] })));
    const blocks = await this.batch<CoreBlock>(hashes.map((hash) => ({ method: 'getblock', params: [hash, 2] })));
    const transfers: Transfer[] = [];
    const addresses = await invoiceAddressesByScript(
      this.network,
      blocks.flatMap((block) => block.tx.flatMap((tx) => tx.vout.map((out) => out.scriptPubKey.hex))),
    );
    for (const block of blocks) {
      for (const tx of block.tx)
        transfers.push(
          ...this.transfersOf(tx, addresses, {
            number: BigInt(block.height),
            hash: block.hash,
            time: new Date(block.time * 1000),
          }),
        );
    }
    const last = blocks[blocks.length - 1]!;
    const cursor = {
      network: this.network,
      chainId: CURSOR_CHAIN_IDS[this.chain],
      block: BigInt(last.height),
      hash: last.hash,
    };
    await recordTransfers(transfers, cursor);
    return cursor;
  }

  /**
   * New mempool transactions (not read before) paying invoice addresses are recorded as payments without a
   * block (0 confirmations); payments whose transaction left the mempool without being mined are reverted.
   */
  private async scanMempool(mempool: Set<string>, cursor: Cursor): Promise<void> {
    const fresh = [...mempool].filter((txid) => !this.seenInMempool.has(txid));
    const now = new Date();
    for (let i = 0; i < fresh.length; i += 500) {
      const txids = fresh.slice(i, i + 500);
      const answers = await this.rpc.batch(
        txids.map((txid) => ({ method: 'getrawtransaction', params: [txid, true] })),
      );
      // A transaction mined or dropped since getrawmempool answers an error: the next pass sees where it went.
      const transactions = answers.filter((answer) => !answer.error).map((answer) => answer.result as CoreTransaction);
      const addresses = await invoiceAddressesByScript(
        this.network,
        transactions.flatMap((tx) => tx.vout.map((out) => out.scriptPubKey.hex)),
      );
      const transfers = transactions.flatMap((tx) => this.transfersOf(tx, addresses, null, now));
      await recordTransfers(transfers, cursor, now);
      for (const tx of transactions) this.seenInMempool.add(tx.txid);
    }
    // Forget what left the mempool (mined or dropped): the set stays the mempool's size.
    for (const txid of this.seenInMempool) if (!mempool.has(txid)) this.seenInMempool.delete(txid);
    const dropped = (await pendingMempoolPayments(this.network)).filter((payment) => !mempool.has(payment.txHash));
    if (dropped.length > 0) {
      for (const payment of dropped)
        this.options.log?.({ level: 'warn', event: 'payment_dropped', network: this.network, tx_hash: payment.txHash });
      await revertPayments(dropped.map((payment) => payment.id));
    }
  }

  /** Payments deep enough: still in their block (its hash at that height unchanged) → confirmed, else reverted. */
  private async settlePending(head: number): Promise<void> {
    const due = head + 1 - this.confirmations;
    if (due < 0) return;
    const payments = await pendingPayments(this.network, { to: BigInt(due) });
    if (payments.length > 0)
      await applyRereads(
        this.network,
        await this.reread(payments),
        { confirmations: this.confirmations },
        this.options.log,
      );
  }

  private async revertOrphaned(payments: PendingPayment[]): Promise<void> {
    if (payments.length > 0) await applyRereads(this.network, await this.reread(payments), null, this.options.log);
  }

  /**
   * Each payment's block re-read at its height, one getblockhash per block: the same hash → same, another → gone
   * (a reorganised-away transaction is recorded afresh where the rescan or the mempool finds it, so Bitcoin never
   * reports moved).
   */
  private async reread(payments: PendingPayment[]): Promise<Map<PendingPayment, Reread>> {
    const heights = [...new Set(payments.map((payment) => Number(payment.blockNumber)))];
    const answers = await this.rpc.batch(heights.map((height) => ({ method: 'getblockhash', params: [height] })));
    const canonical = new Map(
      heights.map((height, i) => [height, answers[i]!.error ? null : (answers[i]!.result as string)]),
    );
    return new Map(
      payments.map((payment) => [
        payment,
        canonical.get(Number(payment.blockNumber)) === payment.blockHash ? { kind: 'same' } : { kind: 'gone' },
      ]),
    );
  }

  /** The outputs of a transaction that pay invoice addresses, as transfers (in a block, or in the mempool). */
  private transfersOf(
    tx: CoreTransaction,
    addresses: Map<string, string>,
    block: { number: bigint; hash: string; time: Date } | null,
    seenAt = new Date(),
  ): Transfer[] {
    const transfers: Transfer[] = [];
    for (const out of tx.vout) {
      const address = addresses.get(out.scriptPubKey.hex);
      // Zero-value outputs are never payments.
      if (!address || /^0(\.0*)?$/.test(out.value)) continue;
      transfers.push({
        network: this.network,
        txHash: tx.txid,
        logIndex: out.n,
        currency: 'BTC',
        // A Bitcoin transaction has inputs, not one sender: no from address is claimed.
        from: '',
        to: address,
        amount: out.value,
        blockNumber: block?.number ?? null,
        blockHash: block?.hash ?? null,
        blockTime: block?.time ?? seenAt,
      });
    }
    return transfers;
  }

  /** Calls in one HTTP request; any error fails the pass (it is retried with back-off). */
  private async batch<T>(calls: Array<{ method: string; params: unknown[] }>): Promise<T[]> {
    const answers = await this.rpc.batch(calls);
    return answers.map((answer, i) => {
      if (answer.error) throw new Error(`${calls[i]!.method} failed: ${answer.error.message}`);
      return answer.result as T;
    });
  }
}
