import { z } from 'zod';
import { publicUrl } from '../env';
import { API_ERROR_CODES, ERROR_CATALOGUE, MAX_FIELD_ERRORS, type ErrorCode, type FieldError } from '../errors';

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

/** The page documenting every code (app/docs/errors), absolute so the `type` URI dereferences (RFC 9457 §3.1.1). */
export const ERRORS_PAGE_PATH = '/docs/errors';

export function problemTypeUri(code: ErrorCode): string {
  return `${publicUrl()}${ERRORS_PAGE_PATH}#${code}`;
}

export function problemBody(code: ErrorCode, detail: string, requestId: string, errors?: FieldError[]): ProblemDetails {
  const { status, title } = ERROR_CATALOGUE[code];
  return {
    type: problemTypeUri(code),
    title,
    status,
    detail,
    code,
    request_id: requestId,
    ...(errors ? { errors } : {}),
  };
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

const ProblemCode = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/)
  .meta({
    'x-extensible-enum': API_ERROR_CODES,
    description:
      'Stable machine-readable code, documented at the `type` URI. An open set: each response lists the codes the operation returns today, and new codes may be added at any time, so clients must accept codes they do not know (treat them by HTTP status).',
    example: 'validation_failed',
  });

/** The problem document as a schema, for the OpenAPI document. */
export const ProblemSchema = z
  .object({
    type: z.url().meta({
      description: 'Link to the documentation of `code` on the errors page',
      example: 'https://api.example.com/docs/errors#validation_failed',
    }),
    title: z.string().meta({ example: 'Validation failed' }),
    status: z.number().int().min(400).max(599).meta({ example: 400 }),
    detail: z.string().meta({ example: 'amount: amount must be greater than 0' }),
    code: ProblemCode,
    request_id: z
      .string()
      .regex(/^req_[0-9A-Za-z]+$/)
      .meta({ example: 'req_3kTz9QwErTyUiOpAsDfGhJkL' }),
    errors: z
      .array(
        z.object({
          path: z.string().meta({ description: 'Dotted path of the field; empty for the body as a whole' }),
          message: z.string(),
        }),
      )
      .max(MAX_FIELD_ERRORS)
      .optional()
      .meta({
        description: `Present only with code \`validation_failed\`: one entry per invalid or unknown field (at most ${MAX_FIELD_ERRORS}); \`detail\` repeats the first.`,
      }),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details',
    examples: [
      {
        type: 'https://api.example.com/docs/errors#validation_failed',
        title: 'Validation failed',
        status: 400,
        detail: 'amount: amount must be greater than 0 (and 1 more)',
        code: 'validation_failed',
        request_id: 'req_3kTz9QwErTyUiOpAsDfGhJkL',
        errors: [
          { path: 'amount', message: 'amount must be greater than 0' },
          {
            path: 'network',
            message:
              'BTC is not supported on tron. Supported: USDT on ethereum/polygon/tron; USDC on ethereum/polygon/base; ETH on ethereum/base; BTC on bitcoin',
          },
        ],
      },
    ],
  });
