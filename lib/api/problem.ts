import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode, type FieldError } from '../errors';

/** RFC 9457 problem details, the body of every error response of /v1. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  errors?: FieldError[];
}

export function problemTypeUri(code: ErrorCode): string {
  return `/docs/errors#${code}`;
}

export function problemBody(code: ErrorCode, detail: string, requestId: string, errors?: FieldError[]): ProblemDetails {
  const { status, title } = ERROR_CATALOGUE[code];
  return { type: problemTypeUri(code), title, status, detail, code, request_id: requestId, ...(errors ? { errors } : {}) };
}

export function problemResponse(
  code: ErrorCode,
  detail: string,
  requestId: string,
  options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body = problemBody(code, detail, requestId, options.errors);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      'Request-Id': requestId,
      ...options.headers,
    },
  });
}

/** The problem document as a schema, for the OpenAPI document. */
export const ProblemSchema = z
  .object({
    type: z.string().meta({ example: '/docs/errors#missing_scope' }),
    title: z.string().meta({ example: 'Missing scope' }),
    status: z.number().int().meta({ example: 403 }),
    detail: z.string().meta({ example: 'API key scope invoices:write is required' }),
    code: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]),
    request_id: z.string().meta({ example: 'req_3kTz9QwErTyUiOpAsDfGhJkL' }),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' });
