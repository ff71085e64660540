/** One request the typed client made and what it received (no import of the generated types: readable before generation). */
export interface Exchange {
  operationId: string;
  path: string;
  method: 'get' | 'post' | 'head' | 'options';
  status: number;
  contentType: string;
  body: unknown;
}

export interface Keys {
  /** Business plan, test environment, every scope. */
  full: string;
  /** invoices:read only. */
  readOnly: string;
  /** Live environment (simulate-payment refuses it). */
  live: string;
}

export type Exercise = (baseUrl: string, keys: Keys) => Promise<Exchange[]>;
