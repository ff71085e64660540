import type { z } from 'zod';
import { MAX_FIELD_ERRORS, type FieldError } from '../errors';
import { ENVIRONMENT_FIELD_HINT } from '../invoices/schemas';

const ENVIRONMENT_FIELDS = new Set(['mode', 'environment', 'env', 'livemode']);

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Turns zod issues into `errors: [{ path, message }]`, naming each unknown field on its own. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const path = issue.path;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          path: joinPath([...path, key]),
          message: ENVIRONMENT_FIELDS.has(key) ? ENVIRONMENT_FIELD_HINT : `Unknown field ${key}`,
        });
      }
      continue;
    }
    out.push({ path: joinPath(path), message: issue.message });
  }
  return out.slice(0, MAX_FIELD_ERRORS);
}

export function summarize(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request is invalid';
  const where = first.path ? `${first.path}: ` : '';
  return errors.length === 1 ? `${where}${first.message}` : `${where}${first.message} (and ${errors.length - 1} more)`;
}
