import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * Keep-alive connections to receivers, so a busy endpoint is not paid a TCP (and TLS) handshake per delivery.
 * One agent per origin *and* checked address: a connection is only ever reused for the address the SSRF check
 * approved for this attempt (lib/webhooks/url-policy.ts), so a DNS change can never ride an old socket past it.
 * The least recently used agents are closed beyond MAX_AGENTS.
 */
const MAX_AGENTS = 256;
/** Idle sockets close before the usual server keep-alive timeouts (Node's is 5 s), so a reused one is rarely stale. */
const IDLE_SOCKET_MS = 4_000;
/** Connections per destination: at least the worker's concurrency, so attempts never queue behind each other. */
const MAX_SOCKETS_PER_DESTINATION = 64;

const agents = new Map<string, http.Agent>();

export function agentFor(url: URL, address: { address: string; family: 4 | 6 }): http.Agent {
  const name = `${url.protocol}//${url.host}|${address.address}`;
  const known = agents.get(name);
  if (known) {
    agents.delete(name); // re-inserted below: Map order is recency
    agents.set(name, known);
    return known;
  }
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const options = {
    keepAlive: true,
    maxSockets: MAX_SOCKETS_PER_DESTINATION,
    maxFreeSockets: MAX_SOCKETS_PER_DESTINATION,
    timeout: IDLE_SOCKET_MS,
    lookup: pinnedLookup,
  };
  const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  agents.set(name, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest, evicted] = agents.entries().next().value as [string, http.Agent];
    agents.delete(oldest);
    evicted.destroy();
  }
  return agent;
}

/** Closes every kept connection (worker shutdown, tests). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
