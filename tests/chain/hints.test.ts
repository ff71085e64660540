import { describe, expect, it } from 'vitest';
import { CHAIN_USAGE, mineHint, payHint, setRateHint } from '../../scripts/chain/hints';

describe('npm run chain: the printed next steps work as pasted', () => {
  it("no --rpc on the default ports; --rpc with the chain's URL on any other", () => {
    expect(payHint('evm', 'http://127.0.0.1:8545')).toBe('npm run chain -- pay "<payment_uri>"');
    expect(payHint('evm', 'http://127.0.0.1:18546')).toBe(
      'npm run chain -- pay "<payment_uri>" --rpc http://127.0.0.1:18546',
    );
    expect(payHint('tron', 'http://127.0.0.1:9545/jsonrpc')).toBe(
      'npm run chain -- --network tron pay "<payment_uri>"',
    );
    expect(payHint('tron', 'http://127.0.0.1:9600/jsonrpc')).toBe(
      'npm run chain -- --network tron pay "<payment_uri>" --rpc http://127.0.0.1:9600/jsonrpc',
    );
    expect(mineHint('http://127.0.0.1:9600/jsonrpc', 20)).toBe(
      'npm run chain -- --network tron mine 20 --rpc http://127.0.0.1:9600/jsonrpc',
    );
    expect(setRateHint('http://127.0.0.1:8545')).toBe('npm run chain -- set-rate ETH/USD 2500.12');
    expect(setRateHint('http://127.0.0.1:8600')).toBe(
      'npm run chain -- set-rate ETH/USD 2500.12 --rpc http://127.0.0.1:8600',
    );
  });

  it('--help documents --port and --rpc', () => {
    expect(CHAIN_USAGE).toContain('--port N');
    expect(CHAIN_USAGE).toContain('pay <payment_uri> [--rpc URL]');
    expect(CHAIN_USAGE).toContain('--network tron mine <N> [--rpc URL]');
  });
});
