import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret, parseSecret, SECRET_LENGTH } from './api-key-secret';

describe('API key secrets', () => {
  it('have the documented shape and a prefix that agrees with the environment', () => {
    for (const environment of ['test', 'live'] as const) {
      const { secret, prefix, hash } = generateSecret(environment);
      expect(secret).toMatch(new RegExp(`^${environment}_[0-9A-Za-z]{36}$`));
      expect(secret).toHaveLength(SECRET_LENGTH);
      expect(prefix).toBe(secret.slice(0, environment.length + 1 + 8));
      expect(hash).toBe(hashSecret(secret));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(parseSecret(secret)).toEqual({ environment, hash });
    }
  });

  it('are unique', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateSecret('test').secret));
    expect(secrets.size).toBe(1000);
  });

  it('reject any single-character change through the checksum', () => {
    const { secret } = generateSecret('live');
    let rejected = 0;
    for (let i = 5; i < secret.length; i++) {
      const replacement = secret[i] === 'A' ? 'B' : 'A';
      const mutated = secret.slice(0, i) + replacement + secret.slice(i + 1);
      if (parseSecret(mutated) === null) rejected++;
    }
    expect(rejected).toBe(secret.length - 5);
  });

  it('reject wrong prefixes, lengths and alphabets', () => {
    const { secret } = generateSecret('test');
    for (const bad of [
      '',
      'test_',
      secret.slice(0, -1),
      `${secret}0`,
      secret.replace('test_', 'prod_'),
      secret.replace('test_', 'TEST_'),
      ` ${secret}`,
      secret.slice(0, -2) + '-_',
    ]) {
      expect(parseSecret(bad)).toBeNull();
    }
  });
});
