import type { Client } from '../client.js';
import { AuthenticationError, PermissionError } from '../errors.js';
import type { Event } from '../types.js';
import { webhooks } from '../webhooks.js';
import { defaultStateFile, readState, writeState, type ListenState } from './listen-state.js';

/**
 * `listen --forward-to <url>`: polls /v1/events of the key's workspace and environment and POSTs each new event to
 * a local URL, signed like a real delivery (Standard Webhooks headers) with a secret of its own, printed at start.
 *
 * Events are listed newest first; each poll reads back to LOOKBACK_MS before the newest event already forwarded and
 * forwards the ones not seen yet, oldest first. The look-back catches an event whose transaction committed after a
 * later one was already listed. The position is saved after every delivery, so a restart resumes where it stopped.
 * Each poll is an API request, metered like any other: while nothing happens the pause doubles (1 s up to 15 s by
 * default, about 240 requests an hour when idle) and returns to the shortest after an event.
 */
export const LOOKBACK_MS = 10_000;
const FORWARD_TIMEOUT_MS = 10_000;

export interface ListenOptions {
  client: Client;
  forwardTo: string;
  stateFile?: string;
  /** Between polls after an event arrived; doubled after each empty poll, up to maxIntervalMs. */
  intervalMs: number;
  maxIntervalMs: number;
  /** Only these types (all when empty). */
  types: string[];
  log: (line: string) => void;
  signal: AbortSignal;
}

async function forward(url: string, secret: string, event: Event, signal: AbortSignal): Promise<string> {
  const body = JSON.stringify(event);
  const headers = webhooks.sign({ payload: body, secret, id: event.id });
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'crypto-invoicing-listen', ...headers },
      body,
      signal: AbortSignal.any
        ? AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)])
        : AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return `[${response.status}] (${Date.now() - started} ms)`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `[failed: ${cause ?? (error as Error).message}]`;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function time(event: { created_at: string }): number {
  return Date.parse(event.created_at);
}

export async function listen(options: ListenOptions): Promise<void> {
  const { client, log, signal } = options;
  const me = await client.me({ signal });
  const workspaceId = me.workspace.id;
  const environment = me.key.environment;
  const stateFile = options.stateFile ?? defaultStateFile(workspaceId, environment);
  let state: ListenState | null = readState(stateFile);
  if (
    state &&
    (state.workspaceId !== workspaceId || state.environment !== environment || state.baseUrl !== client.baseUrl)
  ) {
    throw new Error(
      `${stateFile} belongs to ${state.workspaceId} (${state.environment}) on ${state.baseUrl}; pass another --state-file`,
    );
  }
  if (!state) {
    // First start: forward what happens from now on. The newest page marks where "now" is.
    const newest = await client.events.list({ limit: 100 }, { signal });
    const head = newest.data[0];
    state = {
      version: 1,
      baseUrl: client.baseUrl,
      workspaceId,
      environment,
      secret: webhooks.generateSecret(),
      cursor: head?.created_at ?? null,
      seen: head
        ? newest.data
            .filter((event) => time(event) >= time(head) - LOOKBACK_MS)
            .map(({ id, created_at }) => ({ id, created_at }))
        : [],
    };
    writeState(stateFile, state);
  }
  const current = state;
  log(`Your webhook signing secret is ${current.secret} (kept in ${stateFile})`);
  log(
    `Polling uses this key's monthly allowance: ${me.usage.monthly_requests} of ${me.usage.monthly_limit} requests used this month.`,
  );
  log(
    `Ready! Forwarding ${options.types.length ? options.types.join(', ') : 'all'} events of ${workspaceId} (${environment}) to ${options.forwardTo}` +
      (current.cursor ? `, after ${current.cursor}` : '') +
      '. Ctrl-C to stop.',
  );

  let seen = new Set(current.seen.map((entry) => entry.id));
  let pause = options.intervalMs;
  while (!signal.aborted) {
    const cutoff = current.cursor ? Date.parse(current.cursor) - LOOKBACK_MS : -Infinity;
    const fresh: Event[] = [];
    try {
      for await (const event of client.events.list({ limit: 100 }, { signal })) {
        if (time(event) < cutoff) break;
        if (!seen.has(event.id)) fresh.push(event);
      }
    } catch (error) {
      if (signal.aborted) break;
      // A revoked key or a lost scope will not come back by itself: stop with the API's message.
      if (error instanceof AuthenticationError || error instanceof PermissionError) throw error;
      log(`${new Date().toISOString()}  could not list events: ${(error as Error).message}; retrying`);
      await sleep(options.maxIntervalMs, signal);
      continue;
    }
    for (const event of fresh.reverse()) {
      if (signal.aborted) break;
      const wanted = options.types.length === 0 || options.types.includes(event.type);
      if (wanted) {
        const outcome = await forward(options.forwardTo, current.secret, event, signal);
        // Stopped during this delivery: it is not recorded, so the next run sends it again (receivers de-duplicate
        // on webhook-id, the event id).
        if (signal.aborted) break;
        log(
          `${new Date().toISOString()}  ${event.type.padEnd(24)} ${event.id}  --> POST ${options.forwardTo} ${outcome}`,
        );
      }
      current.seen.push({ id: event.id, created_at: event.created_at });
      if (!current.cursor || time(event) > Date.parse(current.cursor)) current.cursor = event.created_at;
      const keepFrom = Date.parse(current.cursor) - LOOKBACK_MS;
      current.seen = current.seen.filter((entry) => time(entry) >= keepFrom);
      seen = new Set(current.seen.map((entry) => entry.id));
      writeState(stateFile, current);
    }
    pause = fresh.length > 0 ? options.intervalMs : Math.min(options.maxIntervalMs, pause * 2);
    await sleep(pause, signal);
  }
}
