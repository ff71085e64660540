import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION, webhooks } from '../../sdk/src/index';
import { createKey, invoiceCount, seedAccount } from '../support/fixtures';
import { baseUrl } from '../support/http';
import { startReceiver, type Receiver } from '../support/receiver';

/**
 * The SDK as a developer gets it: `npm pack` in sdk/ (its prepack builds it: tsc, ESM + CommonJS + .d.ts), the
 * tarball installed into a fresh folder with no network (`npm ci --offline`: a lockfile naming the tarball and the
 * dependency versions the repository's own lockfile pins, served from the local npm cache), then imported both
 * ways, type-checked as a consumer, its README quick start run as written, and its CLI run through npx.
 */
const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SDK = path.join(ROOT, 'sdk');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const sdkPackage = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8'));

let work: string;
let app: string;
let packedFiles: string[];
let account: Awaited<ReturnType<typeof seedAccount>>;

/** package-lock.json of a folder whose one dependency is the tarball: its dependencies pinned as the root lockfile pins them. */
function consumerLock(tarball: string, integrity: string) {
  const rootLock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'sdk-consumer', dependencies: { [sdkPackage.name]: spec } },
    [`node_modules/${sdkPackage.name}`]: {
      version: sdkPackage.version,
      resolved: spec,
      integrity,
      dependencies: sdkPackage.dependencies,
      bin: sdkPackage.bin,
      engines: sdkPackage.engines,
    },
  };
  const queue = Object.keys(sdkPackage.dependencies);
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (packages[`node_modules/${name}`]) continue;
    const entry = rootLock.packages[`node_modules/${name}`];
    if (!entry) throw new Error(`${name} is not in the root package-lock.json`);
    const { dev: _dev, devOptional: _devOptional, ...pinned } = entry;
    packages[`node_modules/${name}`] = pinned;
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  return { name: 'sdk-consumer', lockfileVersion: 3, requires: true, packages };
}

/**
 * The environment of a developer's shell: without the npm_* variables `npm test` sets (npm_config_local_prefix
 * would make npm in the fresh folder act on this repository), but with the same npm cache.
 */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(clean))
    if (/^npm_/i.test(name) && name.toLowerCase() !== 'npm_config_cache') delete clean[name];
  return Object.assign(
    clean,
    { CRYPTO_INVOICING_API_KEY: account.secret, CRYPTO_INVOICING_BASE_URL: baseUrl(), NO_UPDATE_NOTIFIER: '1' },
    extra,
  );
}

async function run(file: string, args: string[], options: { cwd?: string } = {}) {
  return exec(file, args, { cwd: options.cwd ?? app, env: env(), timeout: 120_000 });
}

beforeAll(async () => {
  account = await seedAccount({ plan: 'Business' });
  work = mkdtempSync(path.join(os.tmpdir(), 'sdk-package-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: SDK,
    env: env(),
    timeout: 240_000,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  packedFiles = packed!.files.map((file) => file.path);
  const tarball = path.join(work, packed!.filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;

  app = path.join(work, 'app');
  await exec('mkdir', ['-p', app]);
  const relative = path.relative(app, tarball);
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify(
      { name: 'sdk-consumer', private: true, dependencies: { [sdkPackage.name]: `file:${relative}` } },
      null,
      2,
    ),
  );
  writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(consumerLock(relative, integrity), null, 2));
  await exec('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, env: env(), timeout: 120_000 });
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed SDK', () => {
  it('holds both builds with their types and the README; node >= 18; standardwebhooks is its only dependency', () => {
    expect(
      packedFiles.every((file) => file.startsWith('dist/') || file === 'README.md' || file === 'package.json'),
    ).toBe(true);
    for (const file of [
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/esm/cli.js',
      'dist/esm/package.json',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    expect(sdkPackage.engines).toEqual({ node: '>=18' });
    expect(sdkPackage.dependencies).toEqual({ standardwebhooks: expect.any(String) });
    const installed = JSON.parse(
      readFileSync(path.join(ROOT, 'node_modules', 'standardwebhooks', 'package.json'), 'utf8'),
    );
    expect(sdkPackage.dependencies.standardwebhooks).toBe(installed.version);
    expect(VERSION).toBe(sdkPackage.version);
  });

  it('a fresh folder imports it as an ES module and as CommonJS, and calls the API with it', async () => {
    writeFileSync(
      path.join(app, 'esm.mjs'),
      `import { Client, NotFoundError } from '@crypto-invoicing/sdk';
const client = new Client();
const me = await client.me();
const missing = await client.invoices.retrieve('inv_000000000000000000000000').catch((error) => error);
console.log(JSON.stringify({ workspace: me.workspace.id, notFound: missing instanceof NotFoundError && missing.code, from: import.meta.resolve('@crypto-invoicing/sdk') }));
`,
    );
    writeFileSync(
      path.join(app, 'cjs.cjs'),
      `const { Client, NotFoundError } = require('@crypto-invoicing/sdk');
const client = new Client();
(async () => {
  const me = await client.me();
  const missing = await client.invoices.retrieve('inv_000000000000000000000000').catch((error) => error);
  console.log(JSON.stringify({ workspace: me.workspace.id, notFound: missing instanceof NotFoundError && missing.code, from: require.resolve('@crypto-invoicing/sdk') }));
})();
`,
    );
    const esm = JSON.parse((await run(process.execPath, ['esm.mjs'])).stdout);
    const cjs = JSON.parse((await run(process.execPath, ['cjs.cjs'])).stdout);
    expect(esm).toMatchObject({ workspace: account.workspace.id, notFound: 'invoice_not_found' });
    expect(cjs).toMatchObject({ workspace: account.workspace.id, notFound: 'invoice_not_found' });
    expect(esm.from).toMatch(/node_modules\/@crypto-invoicing\/sdk\/dist\/esm\/index\.js$/);
    expect(cjs.from).toMatch(/node_modules\/@crypto-invoicing\/sdk\/dist\/cjs\/index\.js$/);
  });

  it('its .d.ts type-check a strict consumer, ES module and CommonJS, and refuse wrong calls', async () => {
    const consumer = (importLine: string) => `${importLine}
export async function main(client: Client): Promise<string> {
  const invoice: Invoice = await client.invoices.create({ amount: '1.5', currency: 'USDC', network: 'base' }, { idempotencyKey: 'k' });
  // @ts-expect-error amounts are decimal strings
  await client.invoices.create({ amount: 1.5, currency: 'USDC', network: 'base' });
  // @ts-expect-error BTC is paid on bitcoin only
  await client.invoices.create({ amount: '1', currency: 'BTC', network: 'tron' });
  for await (const event of client.events.list({ type: 'invoice.paid' })) return event.id;
  try {
    await client.invoices.cancel(invoice.id);
  } catch (error) {
    if (error instanceof APIError) return \`\${error.status} \${error.code} \${error.requestId}\`;
  }
  return invoice.status;
}
`;
    writeFileSync(
      path.join(app, 'consumer.mts'),
      consumer(`import { APIError, Client, type Invoice } from '@crypto-invoicing/sdk';`),
    );
    writeFileSync(
      path.join(app, 'consumer.cts'),
      consumer(`import { APIError, Client, type Invoice } from '@crypto-invoicing/sdk';`),
    );
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022'],
          strict: true,
          noEmit: true,
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const result = await exec(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app }).catch(
      (error: { stdout: string }) => error,
    );
    expect(result.stdout).toBe('');
  });

  it('the README quick start works as written', async () => {
    const readme = readFileSync(path.join(SDK, 'README.md'), 'utf8');
    const quickStart = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(quickStart?.split('\n').filter(Boolean).length).toBeLessThanOrEqual(10);
    writeFileSync(path.join(app, 'quickstart.mjs'), quickStart!);
    const { stdout } = await run(process.execPath, ['quickstart.mjs']);
    const id = /^(inv_\w+) is paid$/m.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).toMatch(/^Pay 49\.99 USDT to T\w+: http/m);
    expect(stdout).toContain(`${id} 49.99 USDT 20`);
  });
});

describe('the CLI, through npx', () => {
  interface Listener {
    child: ChildProcess;
    output: string[];
    secret: string;
  }
  let receiver: Receiver;
  const stateFile = () => path.join(work, 'listen-state.json');
  const running = new Set<ChildProcess>();

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    // A failed test may leave a listen running: end its process group (npx and the CLI under it).
    for (const child of running) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await receiver?.close();
  });

  async function startListen(): Promise<Listener> {
    const child = spawn(
      'npx',
      [
        '--offline',
        '--yes',
        sdkPackage.name,
        'listen',
        '--forward-to',
        receiver.url,
        '--state-file',
        stateFile(),
        '--interval',
        '250',
        '--max-interval',
        '1000',
      ],
      {
        cwd: app,
        env: env(),
        detached: true, // its own process group: npx and the CLI under it get the Ctrl-C together
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    running.add(child);
    child.once('close', () => running.delete(child));
    const output: string[] = [];
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const deadline = Date.now() + 60_000;
    while (!output.some((line) => line.startsWith('Ready!'))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`listen did not start: ${output.join('\n')}\n${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const secret = /signing secret is (whsec_\S+)/.exec(output.join('\n'))?.[1];
    if (!secret) throw new Error(`no secret printed: ${output.join('\n')}`);
    return { child, output, secret };
  }

  /** Ctrl-C to the process group; resolves once every process writing to its output has exited. */
  async function stop(listener: Listener): Promise<void> {
    const closed = new Promise<void>((resolve) => listener.child.once('close', () => resolve()));
    process.kill(-listener.child.pid!, 'SIGINT');
    await closed;
  }

  async function trigger(type: string): Promise<string> {
    const { stdout } = await run('npx', ['--offline', '--yes', sdkPackage.name, 'trigger', type]);
    const id = /Created test invoice (inv_\w+)/.exec(stdout)?.[1];
    if (!id) throw new Error(`trigger printed no invoice: ${stdout}`);
    return id;
  }

  function delivered(index: number, secret: string) {
    const request = receiver.received[index]!;
    // The reference verifier and the SDK's agree: signed with the secret listen printed.
    const reference = new Webhook(secret).verify(request.body, request.headers) as { id: string };
    const event = webhooks.verify(request.body, request.headers, secret);
    expect(reference.id).toBe(event.id);
    expect(request.headers['webhook-id']).toBe(event.id);
    return `${event.type} ${(event.data.object as { id: string }).id}`;
  }

  it('listen forwards the invoice.created and invoice.paid of a trigger, signed, one line each; a restart resumes', async () => {
    // Before the first start: not forwarded (listen starts from the newest existing event).
    await run('npx', ['--offline', '--yes', sdkPackage.name, 'trigger', 'invoice.created']);

    const first = await startListen();
    const paidId = await trigger('invoice.paid');
    await receiver.waitFor(2, 60_000);
    expect([delivered(0, first.secret), delivered(1, first.secret)]).toEqual([
      `invoice.created ${paidId}`,
      `invoice.paid ${paidId}`,
    ]);
    expect(() =>
      webhooks.verify(
        receiver.received[1]!.body.replace('"paid"', '"cancelled"'),
        receiver.received[1]!.headers,
        first.secret,
      ),
    ).toThrow();
    const lines = () => first.output.filter((line) => / --> POST /.test(line));
    for (let waited = 0; lines().length < 2 && waited < 100; waited++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toMatch(
      new RegExp(`^\\S+Z  invoice\\.created +evt_\\w+  --> POST ${receiver.url} \\[200\\] \\(\\d+ ms\\)$`),
    );
    expect(lines()[1]).toMatch(/ invoice\.paid +evt_\w+  --> POST /);
    await stop(first);
    expect(first.output.at(-1)).toBe('Stopped.'); // the CLI's own orderly exit (npx itself dies of the signal)

    // Created while listen is down: forwarded after the restart, with the same secret; nothing forwarded twice.
    const cancelledId = await trigger('invoice.cancelled');
    const second = await startListen();
    expect(second.secret).toBe(first.secret);
    await receiver.waitFor(4, 60_000);
    expect([delivered(2, second.secret), delivered(3, second.secret)]).toEqual([
      `invoice.created ${cancelledId}`,
      `invoice.cancelled ${cancelledId}`,
    ]);
    await stop(second);
    expect(second.output.at(-1)).toBe('Stopped.');
    expect(receiver.received).toHaveLength(4);
  });

  it('trigger refuses a live key and an event it cannot cause, with a clear message', async () => {
    const failure = (error: { code: number; stderr: string }) => error;
    const unknown = await run('npx', ['--offline', '--yes', sdkPackage.name, 'trigger', 'invoice.expired']).catch(
      failure,
    );
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'Cannot trigger "invoice.expired". Triggerable events: invoice.created, invoice.paid, invoice.cancelled',
      ),
    });
    const live = await createKey(account.workspace.id, { environment: 'live' });
    const before = await invoiceCount(account.workspace.id);
    const refused = await run('npx', [
      '--offline',
      '--yes',
      sdkPackage.name,
      'trigger',
      'invoice.paid',
      '--api-key',
      live.secret,
    ]).catch(failure);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('trigger needs a test_ key') });
    expect(await invoiceCount(account.workspace.id)).toBe(before);
  });
});
