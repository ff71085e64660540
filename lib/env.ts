import { z } from 'zod';
import { isTronAddress } from './chain/tron/address';

const positiveInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
// Optional settings whose default lives with their rule (lib/chain/networks.ts); kept as strings here.
const optionalText = z.string().trim().optional();
const optionalCount = z
  .string()
  .trim()
  .regex(/^(\d+)?$/, 'must be a whole number')
  .optional();
const explorerTemplate = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL')
  .refine((value) => value.includes('{tx}'), 'must contain {tx}, where the transaction hash goes')
  .optional();
const evmAddress = z
  .string()
  .trim()
  .regex(/^(0x[0-9a-fA-F]{40})?$/, 'must be an EVM address (0x + 40 hex)')
  .optional();
const tronAddress = z
  .string()
  .trim()
  .refine((value) => value === '' || isTronAddress(value), 'must be a Tron address (T… base58 or 41… hex)')
  .optional();

/**
 * Configuration, parsed once from the process environment. Every value has a default so that
 * `npm start` works with no env file at all; DATABASE_URL is provided by the start scripts.
 */
const EnvSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  DEFAULT_PLAN: z.enum(['Trial', 'Developer', 'Business', 'Merchant']).default('Trial'),
  PLAN_DEVELOPER_MONTHLY_LIMIT: positiveInt(10_000),
  // Per-second figures: each key's token bucket holds this many (refilled at this rate); the workspace's bucket
  // per environment twice that. 0 = no per-second limit (the benchmark's "without" runs).
  PLAN_DEVELOPER_RATE_LIMIT: positiveInt(25),
  PLAN_BUSINESS_MONTHLY_LIMIT: positiveInt(1_000_000),
  PLAN_BUSINESS_RATE_LIMIT: positiveInt(100),
  DATABASE_POOL_SIZE: positiveInt(10),
  // Connections of each of the API's two hot-path clients (lib/db.ts). Few, because postgres.js pipelines
  // statements on them: 2–3 gave the lowest database CPU per request (docs/benchmarks.md).
  DATABASE_HOT_PATH_CONNECTIONS: z.coerce.number().int().min(1).default(3),
  // Portal sessions. Unset secret: one is generated into .data/auth-secret (lib/auth/session-secret.ts).
  NEXTAUTH_SECRET: z.string().trim().min(1).optional(),
  AUTH_SECRET_DIR: z.string().min(1).optional(),
  // Optional GitHub sign-in: on only when both are set.
  GITHUB_ID: z.string().min(1).optional(),
  GITHUB_SECRET: z.string().min(1).optional(),
  METERING_DURABLE_COMMIT: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // How many reverse proxies in front of the app append to X-Forwarded-For (lib/http/client-address.ts).
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // The address users and payers reach the app at (links, redirects, cookies); never taken from request headers.
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // One JSON line per /v1 request on stdout (lib/api/access-log.ts).
  ACCESS_LOG: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // Plans a workspace owner may pick on the billing page; the others are set by the operator (admin CLI).
  SELF_SERVE_PLANS: z
    .string()
    .default('Trial,Developer')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['Trial', 'Developer', 'Business', 'Merchant']))),
  // Portal sign-ups accepted per client address per hour (lib/auth/throttle.ts).
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  // The request log (lib/request-log): on by default; flushed in batches every REQUEST_LOG_FLUSH_MS, at most
  // REQUEST_LOG_MAX_QUEUE entries waiting in memory.
  REQUEST_LOG_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  REQUEST_LOG_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  REQUEST_LOG_MAX_QUEUE: z.coerce.number().int().min(100).default(10_000),
  // API keys: at most this many active keys per workspace; at most KEY_CREATION_PER_MINUTE created (or rolled) per minute.
  MAX_ACTIVE_KEYS_PER_WORKSPACE: z.coerce.number().int().min(1).default(50),
  KEY_CREATION_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // A /v1 request body must arrive within this time (ms), else 408 and the request is not counted.
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // Encrypts webhook signing secrets at rest (32 bytes, base64/base64url). Unset: generated into .data/webhook-key.
  WEBHOOK_ENCRYPTION_KEY: z.string().trim().min(1).optional(),
  // Invitation mail (lib/teams/mail.ts): smtp://user:pass@host:port or smtps://…; unset = links are only shown.
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).default('Crypto invoicing <no-reply@localhost>'),
  // Local receivers (http://127.0.0.1, private networks): refused unless this is true (`npm run dev` sets it).
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  // Seconds between delivery attempts after a failure; the number of entries is the number of retries.
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'WEBHOOK_RETRY_SCHEDULE is comma-separated seconds, e.g. 5,300,1800')
    .default('5,300,1800,7200,18000,36000,50400,72000,86400')
    .transform((value) => value.split(',').map((entry) => Number(entry.trim()))),
  // GET /metrics (docs/operations.md): off (404) unless set; then scrapers send `Authorization: Bearer <token>`.
  METRICS_TOKEN: z.string().trim().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // Worker: deliveries in flight at once, and how long a silent worker's queue locks are kept.
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(128),
  WORKER_STALE_AFTER_SECONDS: z.coerce.number().int().min(2).default(30),
  // Chain settlement (docs/settlement.md, lib/chain/networks.ts): a network is watched only with an RPC URL (several
  // comma-separated = fallbacks). Chain ids, confirmations and token contracts default to the real chains'.
  RPC_URL_ETHEREUM: optionalText,
  RPC_URL_POLYGON: optionalText,
  RPC_URL_BASE: optionalText,
  CHAIN_ID_ETHEREUM: optionalCount,
  CHAIN_ID_POLYGON: optionalCount,
  CHAIN_ID_BASE: optionalCount,
  CONFIRMATIONS_ETHEREUM: optionalCount,
  CONFIRMATIONS_POLYGON: optionalCount,
  CONFIRMATIONS_BASE: optionalCount,
  TOKEN_USDT_ETHEREUM: evmAddress,
  TOKEN_USDC_ETHEREUM: evmAddress,
  TOKEN_USDT_POLYGON: evmAddress,
  TOKEN_USDC_POLYGON: evmAddress,
  TOKEN_USDC_BASE: evmAddress,
  // Block explorer links in the portal (lib/chain/networks.ts explorerTxUrl): an https URL with `{tx}` where the
  // transaction hash goes. Unset: the real chain's explorer, shown only while the network is the real chain.
  EXPLORER_TX_URL_ETHEREUM: explorerTemplate,
  EXPLORER_TX_URL_POLYGON: explorerTemplate,
  EXPLORER_TX_URL_BASE: explorerTemplate,
  EXPLORER_TX_URL_TRON: explorerTemplate,
  EXPLORER_TX_URL_BITCOIN: explorerTemplate,
  // Bitcoin (docs/settlement.md, lib/chain/bitcoin): Bitcoin Core's JSON-RPC (credentials in the URL or as headers,
  // `Name: value` separated by newlines or `;`), the chain whose addresses and keys are accepted, confirmations.
  RPC_URL_BITCOIN: optionalText,
  RPC_HEADERS_BITCOIN: optionalText,
  BITCOIN_CHAIN: z.enum(['main', 'test', 'regtest']).default('main'),
  CONFIRMATIONS_BITCOIN: optionalCount,
  // Prices in fiat (docs/rates.md, lib/rates/feeds.ts): Chainlink feeds read over this network's RPC, at these
  // addresses (default: the mainnet feeds, on ethereum only); a round older than RATE_MAX_AGE_SECONDS (default:
  // the feed's heartbeat + 10 minutes) is refused.
  RATES_NETWORK: z.enum(['ethereum', 'polygon', 'base']).default('ethereum'),
  RATE_FEED_ETH_USD: evmAddress,
  RATE_FEED_BTC_USD: evmAddress,
  RATE_FEED_USDT_USD: evmAddress,
  RATE_FEED_USDC_USD: evmAddress,
  RATE_FEED_EUR_USD: evmAddress,
  RATE_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(604_800).optional(),
  // Tron (lib/chain/tron): TRON's JSON-RPC (/jsonrpc); RPC_HEADERS_TRON = `Name: value` pairs separated by `;`
  // for providers that want a key (TronGrid: TRON-PRO-API-KEY), sent with every request and never logged.
  RPC_URL_TRON: optionalText,
  RPC_HEADERS_TRON: z
    .string()
    .trim()
    .regex(
      /^([A-Za-z0-9-]+\s*:[^;\r\n]*)?(\s*;\s*[A-Za-z0-9-]+\s*:[^;\r\n]*)*\s*;?$/,
      'RPC_HEADERS_TRON is `Name: value` pairs separated by ;',
    )
    .optional(),
  CHAIN_ID_TRON: optionalCount,
  CONFIRMATIONS_TRON: optionalCount,
  TOKEN_USDT_TRON: tronAddress,
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= EnvSchema.parse(process.env);
  return cached;
}

export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) {
    throw new Error(
      'DATABASE_URL is not set. Start the app with `npm start` (embedded PostgreSQL) or set DATABASE_URL.',
    );
  }
  return url;
}

/** The public origin without a trailing slash: PUBLIC_URL, or the local address on PORT. */
export function publicUrl(): string {
  const { PUBLIC_URL, PORT } = env();
  return (PUBLIC_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, '');
}

/** GitHub OAuth credentials, or null when GitHub sign-in is not configured. */
export function githubOAuth(): { clientId: string; clientSecret: string } | null {
  const { GITHUB_ID, GITHUB_SECRET } = env();
  return GITHUB_ID && GITHUB_SECRET ? { clientId: GITHUB_ID, clientSecret: GITHUB_SECRET } : null;
}
