import { meteringSql, runStatement } from './db';
import type { Tenant } from './tenant';

/**
 * How a statement names the tenant its read is bounded by: SQL expressions for the workspace id and the
 * environment (parameters of the read's own statement, or columns of another statement it is part of).
 */
export interface TenantSql {
  workspace: string;
  environment: string;
}

/**
 * A read of tenant-owned rows, written once as one SQL expression that yields JSON (or NULL), and a parser for
 * that JSON. Who runs it decides where the tenant comes from: `runTenantRead` runs it as a statement of its own;
 * the API's authentication statement runs it inside itself, bounded by the key's own row, so that an endpoint
 * whose work is one read costs one database round trip in all (lib/keys/authorize.ts, docs/architecture.md).
 * The read never knows which.
 */
export interface TenantRead<T> {
  /** The expression; `param` binds a value and returns its placeholder. */
  sql: (tenant: TenantSql, param: (value: unknown) => string) => string;
  parse: (json: unknown) => T;
}

/** A read whose answer is known without the database (e.g. a malformed id names nothing): it costs a NULL. */
export function knownAnswer<T>(answer: T): TenantRead<T> {
  return { sql: () => 'NULL', parse: () => answer };
}

/** Runs a read as a statement of its own, bounded by `tenant`. */
export async function runTenantRead<T>(tenant: Tenant, read: TenantRead<T>): Promise<T> {
  const values: unknown[] = [tenant.workspaceId, tenant.environment];
  const expression = read.sql(
    { workspace: '$1', environment: '$2::"Environment"' },
    (value) => `$${values.push(value)}`,
  );
  const rows = await runStatement<{ read: unknown }>(meteringSql(), `SELECT ${expression} AS read`, values);
  return read.parse(rows[0]?.read ?? null);
}
