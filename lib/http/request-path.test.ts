import { describe, expect, it } from 'vitest';
import { classifyRequestPath } from './request-path';

describe('classifyRequestPath: headers follow the normalised path', () => {
  it('refuses dot segments (plain or percent-encoded) and backslashes', () => {
    for (const raw of [
      '/v1/../pay/abc',
      '/v1/%2e%2e/pay/abc',
      '/v1/%2E./pay/abc',
      '/v1/./invoices',
      '/pay/abc/..',
      '/v1\\..\\pay/abc',
      '/v1/%5c../pay',
    ]) {
      expect(classifyRequestPath(raw), raw).toHaveProperty('refused');
    }
  });

  it('classifies on the path without the query; /v1x is not the API', () => {
    expect(classifyRequestPath('/v1/invoices?x=/pay/')).toEqual({ kind: 'api', pathname: '/v1/invoices' });
    expect(classifyRequestPath('/v1')).toMatchObject({ kind: 'api' });
    expect(classifyRequestPath('/v1x')).toMatchObject({ kind: 'page' });
    expect(classifyRequestPath('/pay/tok?next=/v1')).toMatchObject({ kind: 'pay' });
    expect(classifyRequestPath('/signin')).toMatchObject({ kind: 'page' });
    expect(classifyRequestPath('/files/a..b')).toMatchObject({ kind: 'page' });
  });
});
