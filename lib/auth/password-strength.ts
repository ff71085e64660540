import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';

/**
 * Common and easily guessed passwords are refused, offline, with zxcvbn-ts (its common-password lists, names,
 * keyboard patterns, dates, l33t and repeats, English wording). Score 0–4 estimates guesses; 3 ("safely
 * unguessable: moderate protection from an offline slow-hash attack") is the minimum, so `12345678`,
 * `password` and `Passw0rd!` are refused while a passphrase of a few words is accepted.
 */
export const MIN_PASSWORD_SCORE = 3;

let factory: ZxcvbnFactory | undefined;

function estimator(): ZxcvbnFactory {
  // Built on first use: loading the dictionaries takes ≈ 100 ms once per process.
  factory ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
  });
  return factory;
}

/** Null when strong enough; otherwise the message to show (what is wrong, then how to fix it). */
export function weakPasswordMessage(password: string, userInputs: string[] = []): string | null {
  const result: ZxcvbnResult = estimator().check(password, userInputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = result.feedback.warning ? `${result.feedback.warning.replace(/\.$/, '')}. ` : '';
  return `This password is too easy to guess. ${why}Use a longer passphrase of several unrelated words.`;
}
