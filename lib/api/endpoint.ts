import type { z } from 'zod';
import type { ErrorCode } from '../errors';
import type { IdempotencyClaim } from '../idempotency/record';
import type { AuthorizedKey } from '../keys/authorize';
import type { Scope } from '../scopes';
import type { TenantRead } from '../tenant-read';

export type HttpMethod = 'GET' | 'POST';

export interface EndpointContext<Params, Query, Body, Read> {
  key: AuthorizedKey;
  /** Requests counted this month, including this one when it was counted. */
  monthlyRequests: number;
  params: Params;
  query: Query;
  body: Body;
  requestId: string;
  now: Date;
  /** The answer of the endpoint's `read`, made in the authentication statement (undefined without one). */
  read: Read;
  /**
   * A POST's Idempotency-Key: the statement that takes effect must store it (lib/idempotency/record.ts), so
   * the effect and its stored response commit together. null without the header.
   */
  idempotency: IdempotencyClaim | null;
}

/**
 * One /v1 operation: what it needs (scope), what it accepts (zod schemas), what it returns, and the
 * handler. The route files, the handler wrapper and the OpenAPI document are all built from these.
 */
export interface Endpoint<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
  Read = undefined,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /v1/invoices/{id}. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** null: any valid key may call it. */
  scope: Scope | null;
  /** Answers even when the monthly allowance is used up (without counting). Only GET /v1/me. */
  exemptFromMonthlyLimit?: boolean;
  params?: Params;
  query?: Query;
  body?: Body;
  response: Result;
  successStatus: 200 | 201;
  /** Error codes specific to this operation, beyond the ones every authenticated operation can return. */
  errors: ErrorCode[];
  /**
   * The operation's one read, from the validated path parameters and query: the authentication statement
   * answers it (one round trip in all), bounded by the key's tenant, and the handler gets its answer as `read`.
   */
  read?: (inputs: { params: z.output<Params>; query: z.output<Query>; now: Date }) => TenantRead<Read>;
  handler: (
    ctx: EndpointContext<z.output<Params>, z.output<Query>, z.output<Body>, Read>,
  ) => Promise<z.input<Result>> | z.input<Result>;
  /**
   * POST with an effect: renders the row its statement stored with the Idempotency-Key record as the response
   * body, as of the request's time (a replay answers exactly what the first request did).
   */
  renderStored?: (snapshot: unknown, at: Date) => z.input<Result>;
}

export function defineEndpoint<
  Params extends z.ZodType,
  Query extends z.ZodType,
  Body extends z.ZodType,
  Result extends z.ZodType,
  Read = undefined,
>(endpoint: Endpoint<Params, Query, Body, Result, Read>): Endpoint<Params, Query, Body, Result, Read> {
  return endpoint;
}

// Endpoints of any shape, for registries.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handler parameter types vary per endpoint; contravariance needs `any` here
export type AnyEndpoint = Endpoint<any, any, any, any, any>;
