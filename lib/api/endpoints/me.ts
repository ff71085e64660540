import { z } from 'zod';
import { PLAN_NAMES } from '../../plans';
import { SCOPES } from '../../scopes';
import { defineEndpoint } from '../endpoint';

export const MeResponse = z
  .object({
    key: z.object({
      id: z.number().int(),
      label: z.string(),
      prefix: z.string().meta({ example: 'test_Ab3dEf9h' }),
      environment: z.enum(['test', 'live']),
      scopes: z.array(z.enum(SCOPES)),
    }),
    usage: z.object({ monthly_requests: z.number().int(), monthly_limit: z.number().int() }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    plan: z.object({
      name: z.enum(PLAN_NAMES),
      api_access: z.boolean(),
      monthly_limit: z.number().int(),
      rate_limit_per_second: z.number().int(),
    }),
  })
  .meta({ id: 'Me' });

export const getMe = defineEndpoint({
  operationId: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'Inspect the calling API key',
  description: 'The key, its workspace and plan, and this month\'s usage. Needs no scope, and answers (without counting) even when the monthly allowance is used up.',
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
