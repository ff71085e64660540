#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Client } from './client.js';
import { APIError } from './errors.js';
import { listen } from './cli/listen.js';
import { trigger, TRIGGERS } from './cli/trigger.js';
import { VERSION } from './version.js';

const USAGE = `crypto-invoicing ${VERSION}: the Crypto invoicing developer CLI

Usage:
  crypto-invoicing listen --forward-to <url> [--events <type,...>] [--state-file <path>]
                         [--interval <ms>] [--max-interval <ms>]
      Forwards the events of the key's workspace and environment to <url>, signed with a secret it prints.
      Polls every --interval (1000) after an event, slowing down to --max-interval (15000) while idle.
  crypto-invoicing trigger <event type>
      Makes the API emit an event with a test key: ${Object.keys(TRIGGERS).join(', ')}.

Options for every command:
  --api-key <key>    default: $CRYPTO_INVOICING_API_KEY
  --base-url <url>   default: $CRYPTO_INVOICING_BASE_URL, else http://localhost:3000
`;

function milliseconds(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 100)
    throw new Error(`${flag} is a whole number of milliseconds, at least 100`);
  return parsed;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'state-file': { type: 'string' },
      interval: { type: 'string' },
      'max-interval': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const apiKey = values['api-key'] ?? process.env.CRYPTO_INVOICING_API_KEY;
  if (!apiKey) throw new Error('No API key: pass --api-key or set CRYPTO_INVOICING_API_KEY');
  const client = new Client({ apiKey, baseUrl: values['base-url'] });
  const log = (line: string) => console.log(line);

  if (command === 'listen') {
    const forwardTo = values['forward-to'];
    if (!forwardTo)
      throw new Error('listen needs --forward-to <url>, e.g. --forward-to http://localhost:4242/webhooks');
    new URL(forwardTo); // a clear error now rather than on the first event
    const intervalMs = milliseconds('--interval', values.interval, 1000);
    const maxIntervalMs = Math.max(intervalMs, milliseconds('--max-interval', values['max-interval'], 15_000));
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await listen({
      client,
      forwardTo,
      stateFile: values['state-file'],
      intervalMs,
      maxIntervalMs,
      types: (values.events ?? '')
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean),
      log,
      signal: controller.signal,
    });
    log('Stopped.');
    return 0;
  }
  if (command === 'trigger') {
    const [type] = rest;
    if (!type) throw new Error(`trigger needs an event type: ${Object.keys(TRIGGERS).join(', ')}`);
    await trigger(client, type, log);
    return 0;
  }
  throw new Error(`Unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof APIError)
      console.error(`Error: ${error.message} (${error.status} ${error.code}, request ${error.requestId ?? 'unknown'})`);
    else console.error(`Error: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
