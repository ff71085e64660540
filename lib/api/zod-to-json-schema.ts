import { z } from 'zod';
import { documentedRulesOf } from '../documented-rule';

/** zod → JSON Schema for the OpenAPI document: the same schemas the handlers validate with. */
export type JsonSchema = Record<string, unknown>;
export type Converter = (schema: z.ZodType, io: 'input' | 'output', nameIfInline?: string) => JsonSchema;

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/**
 * Integers get the `format` their bounds allow (int32 when both bounds fit, else int64): the bounds come from
 * the validator (`.int()` alone is the safe-integer range), the format follows from them.
 */
function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addIntegerFormats);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as JsonSchema;
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits = (value: unknown) => typeof value === 'number' && value >= INT32.min && value <= INT32.max;
    schema.format = fits(schema.minimum) && fits(schema.maximum) ? 'int32' : 'int64';
  }
  Object.values(schema).forEach(addIntegerFormats);
}

/**
 * A converter that collects named schemas into `components`: zod schemas with a meta `id` become components
 * and are referenced, and a top-level schema without one is registered under `nameIfInline` (so every request
 * and response body of the document is a named component). Cross-field rules registered with
 * `withDocumentedRule` are added as `allOf`.
 */
export function converter(components: Record<string, JsonSchema>): Converter {
  const convert: Converter = (schema, io, nameIfInline) => {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: (ctx) => {
        const rules = documentedRulesOf(ctx.zodSchema as unknown as z.ZodType); // zod's core type of the same object
        if (rules) ctx.jsonSchema.allOf = rules.map((rule) => convert(rule, io));
      },
    }) as JsonSchema;
    delete json.$schema;
    const rewritten = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    addIntegerFormats(rewritten);
    const defs = (rewritten.$defs ?? {}) as Record<string, JsonSchema>;
    delete rewritten.$defs;
    for (const [id, def] of Object.entries(defs)) components[id] ??= def;
    if (nameIfInline && rewritten.$ref === undefined) {
      components[nameIfInline] ??= rewritten;
      return { $ref: `#/components/schemas/${nameIfInline}` };
    }
    return rewritten;
  };
  return convert;
}
