import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62, randomBase62 } from '../ids';

/**
 * API key secrets: `<env>_<30 random base62><6 base62 checksum>`.
 * The checksum (CRC32 of the random part) lets a malformed or mistyped key be rejected without a
 * database read, and lets secret scanners recognise our keys. Only the SHA-256 of the whole secret is stored.
 */
export const KEY_ENVIRONMENTS = ['test', 'live'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const DISPLAY_RANDOM_CHARS = 8;
const SECRET_PATTERN = /^(test|live)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

function encodeBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(randomPart: string): string {
  return encodeBase62(crc32(randomPart), CHECKSUM_LENGTH);
}

export interface GeneratedSecret {
  secret: string;
  prefix: string;
  hash: string;
}

export function generateSecret(environment: KeyEnvironment): GeneratedSecret {
  const random = randomBase62(RANDOM_LENGTH);
  const secret = `${environment}_${random}${checksum(random)}`;
  return { secret, prefix: displayPrefix(environment, random), hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function displayPrefix(environment: KeyEnvironment, random: string): string {
  return `${environment}_${random.slice(0, DISPLAY_RANDOM_CHARS)}`;
}

export interface ParsedSecret {
  environment: KeyEnvironment;
  hash: string;
}

/** Checks prefix, length, alphabet and checksum. Returns null for anything that cannot be one of our keys. */
export function parseSecret(candidate: string): ParsedSecret | null {
  const match = SECRET_PATTERN.exec(candidate);
  if (!match) return null;
  const [, environment, random, check] = match as unknown as [string, KeyEnvironment, string, string];
  if (checksum(random) !== check) return null;
  return { environment, hash: hashSecret(candidate) };
}

export const SECRET_LENGTH = 'test_'.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
