/**
 * Command-line parsing for the project's own CLIs (admin, chain): Node's parseArgs, with the errors a person can
 * act on — an unknown flag names the closest known one ("did you mean --scopes?"), a flag without its value says
 * so — and one line per error: the caller adds "run `<cmd> --help`" instead of printing the whole help again.
 */
import { parseArgs } from 'node:util';

export type FlagType = 'string' | 'boolean';
export type FlagSpec = Record<string, { type: FlagType; short?: string; default?: string | boolean }>;
export type FlagValues = Record<string, string | boolean | undefined>;

/** A mistake in how the command was called (exit code 2), as opposed to a failure of what it did. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `typed` within 2 edits, or one that starts with it (`--expires` → `--expires-at`);
 * null when nothing is close. Ties go to the first name in `known`.
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = levenshtein(typed, name);
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name, distance };
  }
  if (best) return best.name;
  const prefixed = known.filter((name) => typed.length >= 3 && name.startsWith(typed));
  return prefixed.length === 1 ? prefixed[0]! : null;
}

/** "unknown option --scope: did you mean --scopes?" (or without the suggestion when nothing is close). */
export function unknownFlagMessage(typed: string, known: readonly string[]): string {
  const suggestion = closestName(typed, known);
  return `unknown option --${typed}${suggestion ? `: did you mean --${suggestion}?` : ''}`;
}

/** Parses `args` against `options`; every mistake is a UsageError with a one-line message. */
export function parseCliArgs(
  args: string[],
  options: FlagSpec,
  config: { allowPositionals?: boolean } = {},
): { values: FlagValues; positionals: string[] } {
  const known = Object.keys(options);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    // Lenient first, to see every token as the user typed it; the checks below are the strict part.
    parsed = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'positional' && !config.allowPositionals)
      throw new UsageError(`unexpected argument ${token.value}`);
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (!spec) {
      const shorts = Object.entries(options).find(([, s]) => s.short === token.name);
      if (!shorts)
        throw new UsageError(
          token.rawName.startsWith('--') ? unknownFlagMessage(token.name, known) : `unknown option ${token.rawName}`,
        );
      continue;
    }
    const missing = token.value === undefined || (!token.inlineValue && token.value.startsWith('--'));
    if (spec.type === 'string' && missing)
      throw new UsageError(`--${token.name} needs a value (--${token.name} <value>)`);
    if (spec.type === 'boolean' && token.inlineValue) throw new UsageError(`--${token.name} takes no value`);
  }
  const values: FlagValues = {};
  for (const [name, spec] of Object.entries(options)) {
    const value = parsed.values[name];
    const single = Array.isArray(value) ? value.at(-1) : value;
    values[name] = single ?? spec.default;
  }
  return { values, positionals: parsed.positionals };
}
