import type { KeyEnvironment } from '../keys/api-key-secret';

/** How long request-log rows are kept and shown (docs/api.md): the writer prunes, the queries never read past it. */
export const REQUEST_LOG_RETENTION_DAYS = 7;

/** What one logged request records, written and read alike: never the key's secret, the headers or the body. */
export interface RequestLogFields {
  keyId: number;
  keyPrefix: string;
  environment: KeyEnvironment;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  idempotencyKey: string | null;
  ip: string | null;
}
