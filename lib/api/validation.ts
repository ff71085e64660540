import type { z } from 'zod';
import { MAX_FIELD_ERRORS, type FieldError } from '../errors';
import { ENVIRONMENT_FIELD_HINT } from '../invoices/schemas';

const ENVIRONMENT_FIELDS = new Set(['mode', 'environment', 'env', 'livemode']);

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Each path and message at most this many characters; at most MAX_FIELD_ERRORS entries (bounded output). */
const MAX_TEXT = 200;

const cap = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/**
 * Turns zod issues into `errors: [{ path, message }]`, naming each unknown field on its own; at most
 * MAX_FIELD_ERRORS entries (`total` counts them all, for the summary).
 */
export function fieldErrors(error: z.ZodError): { errors: FieldError[]; total: number } {
  const out: FieldError[] = [];
  let total = 0;
  const add = (path: string, message: string) => {
    total++;
    if (out.length < MAX_FIELD_ERRORS) out.push({ path: cap(path), message: cap(message) });
  };
  for (const issue of error.issues) {
    const path = issue.path;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(joinPath([...path, key]), ENVIRONMENT_FIELDS.has(key) ? ENVIRONMENT_FIELD_HINT : `Unknown field ${key}`);
      }
      continue;
    }
    add(joinPath(path), issue.message);
  }
  return { errors: out, total };
}

export function summarize(errors: FieldError[], total: number = errors.length): string {
  const first = errors[0];
  if (!first) return 'The request is invalid';
  const where = first.path ? `${first.path}: ` : '';
  return total === 1 ? `${where}${first.message}` : `${where}${first.message} (and ${total - 1} more)`;
}
