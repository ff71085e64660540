import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderSdkTypes, SDK_TYPES_FILE } from '../../scripts/sdk-types';
import { fetchDocument } from '../support/contract';
import { baseUrl } from '../support/http';

describe('SDK types', () => {
  it('the committed sdk/src/generated/openapi.ts is what the served /v1/openapi.json generates (npm run sdk:types)', async () => {
    const served = await renderSdkTypes(await fetchDocument(baseUrl()));
    const committed = await readFile(SDK_TYPES_FILE, 'utf8');
    // On failure: run `npm run sdk:types` and commit the result (the SDK's types follow the API's document).
    expect(committed === served, 'sdk/src/generated/openapi.ts is stale: run `npm run sdk:types`').toBe(true);
  });

  it('the check can fail: a document with one more schema generates other types', async () => {
    const document = await fetchDocument(baseUrl());
    document.components.schemas.SdkDriftProbe = { type: 'string' };
    expect(await renderSdkTypes(document)).not.toBe(await readFile(SDK_TYPES_FILE, 'utf8'));
  });
});
