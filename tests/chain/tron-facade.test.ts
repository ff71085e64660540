import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronRpc, TronRpcError } from '@/lib/chain/tron/rpc';
import { startTronFacade, TRON_RULES, type TronFacade } from '../../scripts/chain/tron-facade';
import { mineTron } from '../../scripts/chain/tron-local';
import { chain, skipEvmCursorToHead, tron } from '../support/tron';

// The façade's rules, each as TRON's /jsonrpc documents it (tronprotocol/documentation-en docs/api/json-rpc/),
// against the suite's real local node: a watcher that passes these tests cannot lean on what TRON refuses.

let facade: TronFacade;
beforeAll(async () => {
  facade = await startTronFacade({ upstreamUrl: chain.rpcUrl });
  await mineTron(chain.rpcUrl, 30); // enough blocks for finalized (head − 19) to be above genesis
});
afterAll(async () => {
  await facade.close();
  await skipEvmCursorToHead();
});

async function rpc(method: string, params: unknown[] = []) {
  const response = await fetch(facade.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: number; result?: unknown; error?: { code: number; message: string } };
}

const head = async () => BigInt((await rpc('eth_blockNumber')).result as string);
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('the TRON JSON-RPC façade refuses what TRON refuses', () => {
  it('pending and safe tags: -32602 "TAG … not supported", on blocks and on logs', async () => {
    for (const tag of ['pending', 'safe']) {
      expect((await rpc('eth_getBlockByNumber', [tag, false])).error).toEqual(
        expect.objectContaining({ code: -32602, message: `TAG ${tag} not supported` }),
      );
      expect((await rpc('eth_getLogs', [{ fromBlock: tag, toBlock: 'latest' }])).error).toEqual(
        expect.objectContaining({ code: -32602, message: `TAG ${tag} not supported` }),
      );
      expect((await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: tag }])).error).toMatchObject({ code: -32602 });
    }
  });

  it('finalized is the solidified block, head − 19; latest is the head', async () => {
    const now = await head();
    const finalized = (await rpc('eth_getBlockByNumber', ['finalized', false])).result as { number: string };
    expect(BigInt(finalized.number)).toBe(now - BigInt(TRON_RULES.finalizedDepth));
    expect(BigInt(((await rpc('eth_getBlockByNumber', ['latest', false])).result as { number: string }).number)).toBe(
      now,
    );
  });

  it('eth_getLogs over at most 5,000 blocks; 5,001 → -32602 "exceed max block range"; from > to refused', async () => {
    await mineTron(chain.rpcUrl, 5_001);
    const now = await head();
    expect((await rpc('eth_getLogs', [{ fromBlock: hex(now - 4_999n), toBlock: hex(now) }])).result).toEqual(
      expect.any(Array),
    );
    expect((await rpc('eth_getLogs', [{ fromBlock: hex(now - 5_000n), toBlock: hex(now) }])).error).toEqual(
      expect.objectContaining({ code: -32602, message: 'exceed max block range: 5000' }),
    );
    expect((await rpc('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }])).error).toMatchObject({
      code: -32602,
    });
    expect((await rpc('eth_getLogs', [{ fromBlock: hex(now), toBlock: hex(now - 1n) }])).error).toEqual(
      expect.objectContaining({ message: 'please verify: fromBlock <= toBlock' }),
    );
  });

  it('filter addresses: 20-byte hex, or 41… hex; base58 refused; more than 1,000 refused', async () => {
    const now = await head();
    const range = { fromBlock: hex(0n), toBlock: hex(10n) };
    const hexToken = chain.tokens.USDT.toLowerCase();
    const withHex = (await rpc('eth_getLogs', [{ ...range, address: [hexToken] }])).result as Array<{
      address: string;
      blockTimestamp: string;
    }>;
    expect(withHex.length).toBeGreaterThan(0); // the mock tokens' mints
    const with41 = (await rpc('eth_getLogs', [{ ...range, address: `41${hexToken.slice(2)}` }])).result;
    expect(with41).toEqual(withHex);
    // TRON's logs carry their block's timestamp (seconds).
    expect(Number(BigInt(withHex[0]!.blockTimestamp))).toBeGreaterThan(1_600_000_000);
    expect((await rpc('eth_getLogs', [{ ...range, address: [tron.tokens.USDT] }])).error).toEqual(
      expect.objectContaining({ code: -32602, message: `invalid address at index 0: ${tron.tokens.USDT}` }),
    );
    const many = Array.from({ length: 1001 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    expect((await rpc('eth_getLogs', [{ fromBlock: hex(now), toBlock: hex(now), address: many }])).error).toEqual(
      expect.objectContaining({ message: 'exceed max addresses: 1000' }),
    );
  });

  it('no broadcast over JSON-RPC, no Ethereum-only methods; account reads take only latest', async () => {
    expect((await rpc('eth_sendRawTransaction', ['0x00'])).error).toMatchObject({ code: -32601 });
    expect((await rpc('eth_sendTransaction', [{}])).error).toMatchObject({ code: -32601 });
    expect((await rpc('eth_accounts')).result).toEqual([]);
    expect((await rpc('eth_getBalance', [chain.tokens.USDT, 'finalized'])).error).toEqual(
      expect.objectContaining({ code: -32602, message: 'TAG finalized not supported' }),
    );
    expect((await rpc('eth_getBalance', [chain.tokens.USDT, '0x1'])).error).toEqual(
      expect.objectContaining({ message: 'QUANTITY not supported, just support TAG as latest' }),
    );
    expect((await rpc('eth_getBalance', [chain.tokens.USDT, 'latest'])).result).toEqual(expect.any(String));
  });

  it('every refusal is recorded (the settlement tests assert their watcher caused none)', () => {
    expect(facade.refusals.map((r) => r.code)).toContain(-32602);
    expect(facade.refusals.every((r) => r.message.length > 0)).toBe(true);
  });
});

describe('TronRpc', () => {
  it('sends RPC_HEADERS_TRON with every request and never puts them in an error', async () => {
    const seen: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers['tron-pro-api-key'] as string | undefined);
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const down = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonrpc`;
    try {
      // The first URL fails (503): the second (the façade) answers, with the same headers.
      const client = new TronRpc({ urls: [down, facade.rpcUrl], headers: { 'TRON-PRO-API-KEY': 'secret-key-123' } });
      expect(await client.chainId()).toBe(tron.chainId);
      expect(seen).toEqual(['secret-key-123']);
      const alone = new TronRpc({ urls: [down], headers: { 'TRON-PRO-API-KEY': 'secret-key-123' } });
      const error = await alone.blockNumber().catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toMatch(/HTTP 503/);
      expect(JSON.stringify(error) + String((error as Error).message) + String((error as Error).stack)).not.toContain(
        'secret-key-123',
      );
    } finally {
      server.close();
    }
  });

  it("a node error is a TronRpcError with TRON's code; a too-wide range is recognised as such", async () => {
    const client = new TronRpc({ urls: [facade.rpcUrl] });
    const error = await client
      .logs({ addresses: [], topics: [], fromBlock: 0n, toBlock: 6_000n })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TronRpcError);
    expect(error).toMatchObject({ code: -32602, rangeTooLarge: true });
  });
});
