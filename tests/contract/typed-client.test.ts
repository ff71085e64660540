import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import type { Exchange, Exercise } from '../typed-client/exchange';
import { fetchDocument } from '../support/contract';
import { createKey, seedAccount } from '../support/fixtures';
import { baseUrl } from '../support/http';

/**
 * A generated client, proven against the running API: types generated with openapi-typescript from the served
 * document; a client written with openapi-fetch (tests/typed-client/client.ts) that covers every operation and
 * type-checks under strict; and every response that client receives written out as a typed constant, so `tsc`
 * fails when a real response would not fit the generated types (excess fields included: they are fresh literals).
 */
const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLIENT_DIR = path.join(ROOT, 'tests', 'typed-client');
const GENERATED = path.join(CLIENT_DIR, 'generated');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document is arbitrary JSON
type Json = any;

function typedConstant(exchange: Exchange, name: string): string {
  const at = `'${exchange.path}', '${exchange.method}', ${exchange.status}`;
  if (exchange.method === 'head' || exchange.status === 204) return `export const ${name}: HasStatus<${at}> = true;`;
  return `export const ${name}: ResponseBody<${at}, '${exchange.contentType}'> = ${JSON.stringify(exchange.body)};`;
}

async function typeCheck(): Promise<string> {
  try {
    await exec(process.execPath, [TSC, '-p', path.join(CLIENT_DIR, 'tsconfig.json')], { cwd: ROOT });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('typed client generated from the served document', () => {
  let document: Json;
  let exchanges: Exchange[];

  beforeAll(async () => {
    document = await fetchDocument(baseUrl());
    // Request fields with a default stay optional (the default applies when they are omitted).
    const types = astToString(await openapiTS(document, { defaultNonNullable: false }));
    await rm(GENERATED, { recursive: true, force: true });
    await mkdir(GENERATED, { recursive: true });
    await writeFile(path.join(GENERATED, 'schema.ts'), types);

    const account = await seedAccount({ plan: 'Business', environment: 'test' });
    const readOnly = await createKey(account.workspace.id, { scopes: ['invoices:read'] });
    const live = await createKey(account.workspace.id, { environment: 'live' });
    // Imported by URL: the client needs the generated types, which the root type-check must not depend on.
    const { exercise } = (await import(pathToFileURL(path.join(CLIENT_DIR, 'client.ts')).href)) as {
      exercise: Exercise;
    };
    exchanges = await exercise(baseUrl(), { full: account.secret, readOnly: readOnly.secret, live: live.secret });
  }, 120_000);

  it('the client calls every operation of the document', () => {
    const documented = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(new Set(exchanges.map((exchange) => exchange.operationId))).toEqual(new Set(documented));
    expect(exchanges.filter((exchange) => exchange.status >= 400).length).toBeGreaterThan(5); // problems are checked too
  });

  it('type-checks under strict, and every received response fits the generated types', async () => {
    const lines = exchanges.map((exchange, index) => typedConstant(exchange, `received${index}`));
    await writeFile(
      path.join(GENERATED, 'received.ts'),
      [`import type { HasStatus, ResponseBody } from '../client';`, ...lines, ''].join('\n'),
    );
    // The same check must fail on a response that does not fit: a created invoice with a JSON-number amount and an undocumented field.
    const created = exchanges.find((exchange) => exchange.operationId === 'createInvoice' && exchange.status === 201)!;
    const broken = { ...created, body: { ...(created.body as object), amount: 12.5, undocumented: true } };
    await writeFile(
      path.join(GENERATED, 'broken.ts'),
      [`import type { ResponseBody } from '../client';`, typedConstant(broken, 'broken'), ''].join('\n'),
    );

    const output = await typeCheck();
    const errorLines = output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(
      errorLines.filter((line) => !line.startsWith('tests/typed-client/generated/broken.ts')),
      output.slice(0, 4000),
    ).toEqual([]);
    expect(errorLines.some((line) => line.startsWith('tests/typed-client/generated/broken.ts'))).toBe(true);
  }, 120_000);

  it('generated types: timestamps are date-time, Problem.code is an open string, pairs are a union per currency', async () => {
    const types = astToString(await openapiTS(document, { defaultNonNullable: false }));
    expect(types).toMatch(/Format: date-time[\s\S]*created_at: string/);
    expect(types).toMatch(/CurrencyNetworkPair: components\["schemas"\]\["USDTPair"\] \| /);
    expect(types).toMatch(/code: string;/);
  });
});
