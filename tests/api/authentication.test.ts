import { beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from '@/lib/keys/api-key-secret';
import { monthlyCount, seedAccount } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

describe('authentication headers', () => {
  let account: Awaited<ReturnType<typeof seedAccount>>;
  beforeAll(async () => {
    account = await seedAccount({ plan: 'Developer' });
  });

  it('accepts X-API-Key', async () => {
    const result = await call('GET', '/v1/me', { headers: { 'X-API-Key': account.secret } });
    expect(result.status).toBe(200);
    expect(result.json.key.id).toBe(account.key.id);
  });

  it('accepts Authorization: Bearer with any scheme case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const result = await call('GET', '/v1/me', { headers: { Authorization: `${scheme} ${account.secret}` } });
      expect(result.status, scheme).toBe(200);
    }
  });

  it('X-API-Key wins when both headers are present, even when it is wrong', async () => {
    const wrongFirst = await call('GET', '/v1/me', {
      headers: { 'X-API-Key': generateSecret('test').secret, Authorization: `Bearer ${account.secret}` },
    });
    expectProblem(wrongFirst, 401, 'invalid_api_key');

    const other = await seedAccount({ plan: 'Developer' });
    const both = await call('GET', '/v1/me', {
      headers: { 'X-API-Key': other.secret, Authorization: `Bearer ${account.secret}` },
    });
    expect(both.status).toBe(200);
    expect(both.json.key.id).toBe(other.key.id);
  });

  it('an empty X-API-Key falls back to Authorization', async () => {
    const result = await call('GET', '/v1/me', {
      headers: { 'X-API-Key': '', Authorization: `Bearer ${account.secret}` },
    });
    expect(result.status).toBe(200);
  });

  it('empty headers and other schemes are a missing key', async () => {
    expectProblem(await call('GET', '/v1/me', { headers: { 'X-API-Key': '' } }), 401, 'missing_api_key');
    expectProblem(await call('GET', '/v1/me', { headers: { Authorization: 'Bearer ' } }), 401, 'missing_api_key');
    expectProblem(
      await call('GET', '/v1/me', { headers: { Authorization: `Basic ${account.secret}` } }),
      401,
      'missing_api_key',
    );
  });

  it('never accepts a key in the query string, and says to use a header', async () => {
    const result = await call('GET', `/v1/me?api_key=${account.secret}`);
    const problem = expectProblem(result, 401, 'missing_api_key');
    expect(problem.detail).toMatch(/header/i);
  });

  it('401 responses never count towards usage', async () => {
    const before = await monthlyCount(account.workspace.id);
    await call('GET', '/v1/me', { key: account.secret.slice(0, -1) + (account.secret.endsWith('a') ? 'b' : 'a') });
    await call('GET', '/v1/me');
    expect(await monthlyCount(account.workspace.id)).toBe(before);
  });
});
