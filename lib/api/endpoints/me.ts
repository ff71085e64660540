import { z } from 'zod';
import { PLAN_NAMES } from '../../plans';
import { SCOPES } from '../../scopes';
import { defineEndpoint } from '../endpoint';

// PostgreSQL int4 columns (key ids, counters): the document states them as int32, never negative.
const Count = z.int32().min(0);

export const MeResponse = z
  .object({
    key: z.object({
      id: z.int32().min(1),
      label: z.string(),
      prefix: z.string().meta({ example: 'test_Ab3dEf9h' }),
      environment: z.enum(['test', 'live']),
      scopes: z.array(z.enum(SCOPES)).max(SCOPES.length),
    }),
    usage: z.object({ monthly_requests: Count, monthly_limit: Count }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    plan: z.object({
      name: z.enum(PLAN_NAMES),
      api_access: z.boolean(),
      monthly_limit: Count,
      rate_limit_per_second: Count,
    }),
  })
  .meta({
    id: 'Me',
    examples: [
      {
        key: {
          id: 42,
          label: 'Checkout server',
          prefix: 'test_Ab3dEf9h',
          environment: 'test',
          scopes: ['invoices:read', 'invoices:write'],
        },
        usage: { monthly_requests: 1280, monthly_limit: 10000 },
        workspace: { id: 'ws_7GqR2mXbN4vLpT9sKcW1dE3f', name: 'Acme' },
        plan: { name: 'Developer', api_access: true, monthly_limit: 10000, rate_limit_per_second: 10 },
      },
    ],
  });

export const getMe = defineEndpoint({
  operationId: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'Inspect the calling API key',
  description:
    "The key, its workspace and plan, and this month's usage. Needs no scope, and answers (without counting) even when the monthly allowance is used up.",
  tags: ['Keys'],
  scope: null,
  exemptFromMonthlyLimit: true,
  response: MeResponse,
  successStatus: 200,
  errors: [],
  handler: async ({ key, monthlyRequests }) => ({
    key: { id: key.id, label: key.label, prefix: key.prefix, environment: key.environment, scopes: key.scopes },
    usage: { monthly_requests: monthlyRequests, monthly_limit: key.plan.monthlyLimit },
    workspace: { id: key.workspace.id, name: key.workspace.name },
    plan: {
      name: key.plan.name,
      api_access: key.plan.apiAccess,
      monthly_limit: key.plan.monthlyLimit,
      rate_limit_per_second: key.plan.rateLimitPerSecond,
    },
  }),
});
