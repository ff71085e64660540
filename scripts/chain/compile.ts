// Compiles the local chain's mock contracts with solc-js (WebAssembly, offline) into committed fixtures:
// contracts/MockToken.sol → lib/chain/fixtures/mock-token.json, contracts/MockAggregator.sol →
// lib/chain/fixtures/mock-aggregator.json. `npm run chain` and the test setup call the ensure…Fixture()
// functions, which recompile only when the source's hash differs from the one recorded in the fixture.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface MockContract {
  name: string;
  source: string;
  fixture: string;
}

const MOCK_TOKEN: MockContract = {
  name: 'MockToken',
  source: path.join(ROOT, 'contracts/MockToken.sol'),
  fixture: path.join(ROOT, 'lib/chain/fixtures/mock-token.json'),
};
const MOCK_AGGREGATOR: MockContract = {
  name: 'MockAggregator',
  source: path.join(ROOT, 'contracts/MockAggregator.sol'),
  fixture: path.join(ROOT, 'lib/chain/fixtures/mock-aggregator.json'),
};
export const FIXTURE = MOCK_TOKEN.fixture;

export interface ContractFixture {
  sourceSha256: string;
  compiler: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}
export type MockTokenFixture = ContractFixture;

function sourceHash(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function readFixture(contract: MockContract): ContractFixture | null {
  try {
    return JSON.parse(readFileSync(contract.fixture, 'utf8')) as ContractFixture;
  } catch {
    return null;
  }
}

function compile(contract: MockContract): ContractFixture {
  const source = readFileSync(contract.source, 'utf8');
  const file = path.basename(contract.source);
  // solc is a dev dependency: loaded only when the source changed.
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const compiled = output.contracts[file]![contract.name]!;
  const fixture: ContractFixture = {
    sourceSha256: sourceHash(source),
    compiler: solc.version(),
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
  };
  writeFileSync(contract.fixture, `${JSON.stringify(fixture, null, 2)}\n`);
  return fixture;
}

function ensureFixture(contract: MockContract): ContractFixture {
  const fixture = readFixture(contract);
  if (fixture && fixture.sourceSha256 === sourceHash(readFileSync(contract.source, 'utf8'))) return fixture;
  return compile(contract);
}

export function compileMockToken(): MockTokenFixture {
  return compile(MOCK_TOKEN);
}

/** The fixture, recompiled first if contracts/MockToken.sol changed since it was written. */
export function ensureMockTokenFixture(): MockTokenFixture {
  return ensureFixture(MOCK_TOKEN);
}

/** The Chainlink-compatible mock feed, recompiled first if contracts/MockAggregator.sol changed. */
export function ensureMockAggregatorFixture(): ContractFixture {
  return ensureFixture(MOCK_AGGREGATOR);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const contract of [MOCK_TOKEN, MOCK_AGGREGATOR]) {
    const fixture = compile(contract);
    console.log(`compiled ${contract.name} with solc ${fixture.compiler} → ${path.relative(ROOT, contract.fixture)}`);
  }
}
