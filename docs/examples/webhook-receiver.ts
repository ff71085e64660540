import http from 'node:http';
import { Webhook } from 'standardwebhooks';

/** The envelope of every event (GET /v1/events/{id} returns the same JSON). */
export interface WebhookEvent {
  id: string; // evt_…, also the webhook-id header: the same on every retry and resend
  object: 'event';
  type: string; // invoice.created, invoice.paid, …
  environment: 'test' | 'live';
  created_at: string;
  data: { object: { id: string; status?: string } & Record<string, unknown> };
}

export interface ReceiverOptions {
  /** The endpoint's signing secret, whsec_… (shown once in the portal). */
  secret: string;
  /** Your business logic. Called at most once per webhook-id by this process. */
  handle: (event: WebhookEvent) => Promise<void>;
  /**
   * Records a webhook-id; returns false when it was already recorded. Delivery is at least once, so the same
   * event can arrive twice: in production, insert into a table with a unique index on the id instead.
   */
  markSeen?: (webhookId: string) => Promise<boolean>;
}

export function createWebhookReceiver({ secret, handle, markSeen = inMemorySeen() }: ReceiverOptions): http.Server {
  const webhook = new Webhook(secret);
  return http.createServer(async (req, res) => {
    if (req.method !== 'POST') return reply(res, 405);
    // Verify the raw bytes exactly as received: parsing and re-serializing the JSON would change the signature.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    let event: WebhookEvent;
    try {
      // Checks the signature (any of the listed ones, so a secret roll needs no downtime) and that the
      // timestamp is within 5 minutes (replays are refused).
      event = webhook.verify(body, headers) as WebhookEvent;
    } catch {
      return reply(res, 400); // not from us, altered, or too old: do not act on it
    }
    try {
      if (await markSeen(headers['webhook-id'])) await handle(event);
      reply(res, 204); // answer 2xx within 10 s; do slow work after answering (or queue it)
    } catch {
      reply(res, 500); // a failure: it will be retried with the same webhook-id
    }
  });
}

function reply(res: http.ServerResponse, status: number): void {
  res.writeHead(status).end();
}

function inMemorySeen(): (webhookId: string) => Promise<boolean> {
  const seen = new Set<string>();
  return async (webhookId) => {
    if (seen.has(webhookId)) return false;
    seen.add(webhookId);
    return true;
  };
}

// Run it: WEBHOOK_SECRET=whsec_… npx tsx docs/examples/webhook-receiver.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = createWebhookReceiver({
    secret: process.env.WEBHOOK_SECRET ?? '',
    handle: async (event) => {
      // Events are not ordered: when order matters, read the invoice's current state with GET /v1/invoices/{id}.
      console.log(`${event.type} ${event.data.object.id} (${event.id})`);
    },
  });
  server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1');
}
