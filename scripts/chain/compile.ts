// Compiles contracts/MockToken.sol with solc-js (WebAssembly, offline) into the committed fixture
// lib/chain/fixtures/mock-token.json. `npm run chain` and the test setup call ensureMockTokenFixture(), which
// recompiles only when the source's hash differs from the one recorded in the fixture.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = path.join(ROOT, 'contracts/MockToken.sol');
export const FIXTURE = path.join(ROOT, 'lib/chain/fixtures/mock-token.json');

export interface MockTokenFixture {
  sourceSha256: string;
  compiler: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

function sourceHash(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function readFixture(): MockTokenFixture | null {
  try {
    return JSON.parse(readFileSync(FIXTURE, 'utf8')) as MockTokenFixture;
  } catch {
    return null;
  }
}

export function compileMockToken(): MockTokenFixture {
  const source = readFileSync(SOURCE, 'utf8');
  // solc is a dev dependency: loaded only when the source changed.
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { 'MockToken.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['MockToken.sol']!['MockToken']!;
  const fixture: MockTokenFixture = {
    sourceSha256: sourceHash(source),
    compiler: solc.version(),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  return fixture;
}

/** The fixture, recompiled first if contracts/MockToken.sol changed since it was written. */
export function ensureMockTokenFixture(): MockTokenFixture {
  const fixture = readFixture();
  if (fixture && fixture.sourceSha256 === sourceHash(readFileSync(SOURCE, 'utf8'))) return fixture;
  return compileMockToken();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fixture = compileMockToken();
  console.log(`compiled MockToken with solc ${fixture.compiler} → ${path.relative(ROOT, FIXTURE)}`);
}
