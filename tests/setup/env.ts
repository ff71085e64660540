// Vitest setup file: runs in each test worker before the test file is imported, so that modules reading
// process.env at import time (lib/db, lib/env) see the worker's own lane: database, app server and local chain
// (tests/setup/global.ts). VITEST_POOL_ID numbers the workers 1..maxWorkers, so two files running at once never
// share a lane.
import { beforeEach, inject } from 'vitest';
import { serverLogSettled, serverLogSize, serverProblemsSince } from '../support/server-log';

const lanes = inject('TEST_LANES');
const lane = lanes[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % lanes.length]!;

process.env.DATABASE_URL = lane.DATABASE_URL;
process.env.TEST_BASE_URL = lane.TEST_BASE_URL;
process.env.WEBHOOK_ENCRYPTION_KEY = inject('WEBHOOK_ENCRYPTION_KEY');
const chain = lane.TEST_CHAIN;
process.env.TEST_CHAIN = JSON.stringify(chain);
// The same chain settings as the lane's server (watchers run inside test workers too).
Object.assign(process.env, {
  RPC_URL_ETHEREUM: chain.rpcUrl,
  CHAIN_ID_ETHEREUM: String(chain.chainId),
  TOKEN_USDT_ETHEREUM: chain.tokens.USDT,
  TOKEN_USDC_ETHEREUM: chain.tokens.USDC,
  CONFIRMATIONS_ETHEREUM: String(chain.confirmations),
});
process.env.TEST_BITCOIN = JSON.stringify(lane.TEST_BITCOIN);
Object.assign(process.env, {
  RPC_URL_BITCOIN: lane.TEST_BITCOIN.rpcUrl,
  BITCOIN_CHAIN: 'regtest',
  CONFIRMATIONS_BITCOIN: String(lane.TEST_BITCOIN.confirmations),
});
// The lane server's tron network (the same node behind the TRON JSON-RPC façade).
const tron = lane.TEST_TRON;
process.env.TEST_TRON = JSON.stringify(tron);
Object.assign(process.env, {
  RPC_URL_TRON: tron.rpcUrl,
  CHAIN_ID_TRON: String(tron.chainId),
  TOKEN_USDT_TRON: tron.tokens.USDT,
});

// A failing test prints what the lane's server logged at warn or above while it ran (a 503's cause is there).
beforeEach((context) => {
  const offset = serverLogSize(lane.SERVER_LOG);
  context.onTestFailed(async () => {
    await serverLogSettled(lane.SERVER_LOG);
    const lines = serverProblemsSince(lane.SERVER_LOG, offset);
    if (lines.length > 0)
      console.error(`--- the lane server's warnings and errors during this test ---\n${lines.join('\n')}`);
  });
});
