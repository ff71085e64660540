import type { z } from 'zod';
import type { ErrorCode } from '../errors';
import type { IdempotencyClaim } from '../idempotency/record';
import type { AuthorizedKey, FusedRead } from '../keys/authorize';
import type { Scope } from '../scopes';

export type HttpMethod = 'GET' | 'POST';

export interface EndpointContext<Params, Query, Body> {
  key: AuthorizedKey;
  /** Requests counted this month, including this one when it was counted. */
  monthlyRequests: number;
  params: Params;
  query: Query;
  body: Body;
  requestId: string;
  now: Date;
  /** The result of the endpoint's `prefetch`, when it made one (undefined otherwise). */
  prefetched?: unknown;
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
   * A read to answer in the authentication statement (one round trip in all), from the validated path
   * parameters and query; null when they cannot name anything (the handler then decides, e.g. 404 without a read).
   */
  prefetch?: (inputs: { params: z.output<Params>; query: z.output<Query>; now: Date }) => FusedRead | null;
  handler: (ctx: EndpointContext<z.output<Params>, z.output<Query>, z.output<Body>>) => Promise<z.input<Result>>;
  /**
   * POST with an effect: renders the row its statement stored with the Idempotency-Key record as the response
   * body, as of the request's time (a replay answers exactly what the first request did).
   */
  renderStored?: (snapshot: unknown, at: Date) => z.input<Result>;
}

export function defineEndpoint<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType, Result extends z.ZodType>(
  endpoint: Endpoint<Params, Query, Body, Result>,
): Endpoint<Params, Query, Body, Result> {
  return endpoint;
}

// Endpoints of any shape, for registries.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handler parameter types vary per endpoint; contravariance needs `any` here
export type AnyEndpoint = Endpoint<any, any, any, any>;
