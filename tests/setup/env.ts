// Vitest setup file: runs in each test worker before the test file is imported, so that modules reading
// process.env at import time (lib/db, lib/env) see the run's own database, app server and local chain.
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('DATABASE_URL');
process.env.TEST_BASE_URL = inject('TEST_BASE_URL');
process.env.WEBHOOK_ENCRYPTION_KEY = inject('WEBHOOK_ENCRYPTION_KEY');
const chain = inject('TEST_CHAIN');
process.env.TEST_CHAIN = JSON.stringify(chain);
// The same chain settings as the server under test (watchers run inside test workers too).
Object.assign(process.env, {
  RPC_URL_ETHEREUM: chain.rpcUrl,
  CHAIN_ID_ETHEREUM: String(chain.chainId),
  TOKEN_USDT_ETHEREUM: chain.tokens.USDT,
  TOKEN_USDC_ETHEREUM: chain.tokens.USDC,
  CONFIRMATIONS_ETHEREUM: String(chain.confirmations),
});
