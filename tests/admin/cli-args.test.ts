import { describe, expect, it } from 'vitest';
import { closestName, levenshtein, parseCliArgs, UsageError } from '../../scripts/cli-args';

const OPTIONS = {
  scopes: { type: 'string' },
  'expires-at': { type: 'string' },
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  port: { type: 'string', default: '8545' },
} as const;

function usageMessage(args: string[]): string {
  try {
    parseCliArgs(args, OPTIONS, { allowPositionals: true });
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${args.join(' ')} parsed without an error`);
}

describe('CLI arguments: mistakes get a one-line message that says what to type', () => {
  it('edit distance', () => {
    expect(levenshtein('scope', 'scopes')).toBe(1);
    expect(levenshtein('workspcae', 'workspace')).toBe(2);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('port', 'port')).toBe(0);
  });

  it('an unknown flag names the closest known one (≤ 2 edits, or the one it starts), else none', () => {
    expect(usageMessage(['key:create', '--scope', 'invoices:read'])).toBe(
      'unknown option --scope: did you mean --scopes?',
    );
    expect(usageMessage(['--workspcae', 'ws_1'])).toBe('unknown option --workspcae: did you mean --workspace?');
    expect(usageMessage(['--prot', '1'])).toBe('unknown option --prot: did you mean --port?');
    expect(usageMessage(['--expires', '2027-01-01'])).toBe('unknown option --expires: did you mean --expires-at?');
    expect(usageMessage(['--colour'])).toBe('unknown option --colour');
    expect(closestName('key:lst', ['key:list', 'user:list'])).toBe('key:list');
    expect(closestName('frobnicate', ['key:list', 'user:list'])).toBeNull();
  });

  it('a flag without its value, a value for a switch, an unknown short flag', () => {
    expect(usageMessage(['--scopes'])).toBe('--scopes needs a value (--scopes <value>)');
    expect(usageMessage(['--scopes', '--json'])).toBe('--scopes needs a value (--scopes <value>)');
    expect(usageMessage(['--json=yes'])).toBe('--json takes no value');
    expect(usageMessage(['-x'])).toBe('unknown option -x');
  });

  it('correct arguments parse as parseArgs would, with defaults', () => {
    expect(parseCliArgs(['key:list', '--workspace=ws_1', '--json', '-h'], OPTIONS, { allowPositionals: true })).toEqual(
      {
        values: { scopes: undefined, 'expires-at': undefined, workspace: 'ws_1', json: true, help: true, port: '8545' },
        positionals: ['key:list'],
      },
    );
    expect(() => parseCliArgs(['stray'], OPTIONS)).toThrow('unexpected argument stray');
  });
});
