import type { BenchData } from './seed';

/** What one autocannon process sends: requests rotate over `paths` and over `headers`. */
export interface LoadConfig {
  method: 'GET' | 'POST';
  paths: string[];
  headers: Record<string, string>[];
  body?: unknown;
}

export interface Scenario extends LoadConfig {
  id: string;
  name: string;
  /** Throughput target as a ratio of the baseline (reported, never asserted). */
  target?: string;
  /** Workspaces whose monthly usage this scenario's requests are counted in (none: unauthenticated). */
  workspaces: string[];
}

const key = (secret: string) => ({ 'x-api-key': secret });

export function scenarios(data: BenchData): Scenario[] {
  const { workspaces } = data;
  return [
    { id: 'a', name: 'baseline GET /api/health', workspaces: [], method: 'GET', paths: ['/api/health'], headers: [{}] },
    {
      id: 'b',
      name: `GET /v1/me, ${data.manyKeys.length} keys / ${workspaces.spread.length} workspaces`,
      target: '≥ 0.90',
      workspaces: workspaces.spread,
      method: 'GET',
      paths: ['/v1/me'],
      headers: data.manyKeys.map(key),
    },
    { id: 'c', name: 'GET /v1/me, one key (hot usage row)', target: '≥ 0.85', workspaces: [workspaces.hot], method: 'GET', paths: ['/v1/me'], headers: [key(data.hotKey)] },
    {
      id: 'd1',
      name: 'GET /v1/invoices?limit=20, first page',
      target: '≥ 0.75',
      workspaces: [workspaces.big],
      method: 'GET',
      paths: ['/v1/invoices?limit=20'],
      headers: [key(data.bigKey)],
    },
    {
      id: 'd2',
      name: 'GET /v1/invoices?limit=20, deep cursor',
      target: '±10% of d1',
      workspaces: [workspaces.big],
      method: 'GET',
      paths: [`/v1/invoices?limit=20&starting_after=${data.deepCursor}`],
      headers: [key(data.bigKey)],
    },
    {
      id: 'e',
      name: 'POST /v1/invoices',
      target: '≥ 0.70',
      workspaces: [workspaces.creator],
      method: 'POST',
      paths: ['/v1/invoices'],
      headers: [key(data.createKey)],
      body: { amount: '49.99', currency: 'USDT', network: 'tron' },
    },
    {
      id: 'e2',
      name: 'POST /v1/invoices priced in USD (cached feed rate)',
      target: 'within 5 % of e',
      workspaces: [workspaces.creator],
      method: 'POST',
      paths: ['/v1/invoices'],
      headers: [key(data.createKey)],
      // The same invoice as (e), priced in fiat: the rate is read from the local chain's mock feed at most every 30 s.
      body: { price_amount: '49.99', price_currency: 'USD', currency: 'USDT', network: 'tron' },
    },
    {
      id: 'f',
      name: 'GET /v1/invoices/{id}, 1,000 ids',
      target: '≥ 0.80',
      workspaces: [workspaces.big],
      method: 'GET',
      paths: data.invoiceIds.map((id) => `/v1/invoices/${id}`),
      headers: [key(data.bigKey)],
    },
  ];
}
