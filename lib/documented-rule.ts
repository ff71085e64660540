import type { z } from 'zod';

/**
 * Cross-field rules that a zod refinement enforces at runtime, which JSON Schema cannot derive from the
 * refinement itself: stated beside the schema as a second zod schema built from the same table (e.g. the
 * currency × network pairs from CURRENCY_RULES). The refinement stays the validator and keeps its messages;
 * the OpenAPI document adds the rule as `allOf`, so generated client types refuse what the API refuses.
 */
const rules = new WeakMap<z.ZodType, z.ZodType[]>();

export function withDocumentedRule<T extends z.ZodType>(schema: T, ...rule: [z.ZodType, ...z.ZodType[]]): T {
  rules.set(schema, rule);
  return schema;
}

export function documentedRulesOf(schema: z.ZodType): z.ZodType[] | undefined {
  return rules.get(schema);
}
