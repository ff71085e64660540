// npm run chain -- receiver [--port 4443]: a local https webhook receiver, to see live events arrive on a laptop.
// Live endpoints must use https (docs/webhooks.md) and the worker verifies certificates, so the receiver serves a
// self-signed certificate (kept in .data/dev-tls/) that the app is started to trust with NODE_EXTRA_CA_CERTS.
// Each request is printed; with WEBHOOK_SECRET=whsec_… its signature is verified (standardwebhooks) first.
import https from 'node:https';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ensureDevCertificate } from '../dev-tls';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startDevReceiver(port: number): Promise<https.Server> {
  const certificate = ensureDevCertificate(path.join(ROOT, '.data', 'dev-tls'));
  const secret = process.env.WEBHOOK_SECRET?.trim();
  const webhook = secret ? new Webhook(secret) : null;
  const server = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let event: { type?: string; data?: { object?: { id?: string; status?: string } } };
      let note: string;
      try {
        event = (webhook ? webhook.verify(body, headers) : JSON.parse(body)) as typeof event;
        note = webhook ? 'signature verified' : 'not verified (set WEBHOOK_SECRET=whsec_… to verify)';
      } catch (error) {
        console.log(`${new Date().toISOString()} ${req.method} ${req.url}: refused — ${(error as Error).message}`);
        res.writeHead(400).end();
        return;
      }
      const object = event.data?.object;
      console.log(
        `${new Date().toISOString()} ${event.type ?? '?'} ${object?.id ?? ''} ${object?.status ?? ''} (${headers['webhook-id']}) — ${note}`,
      );
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `https://127.0.0.1:${port}/hooks`;
  console.log(`Local https webhook receiver on ${url} (self-signed certificate ${certificate.certPath}).`);
  console.log(
    '\nStart the app so that its worker trusts this certificate and may deliver to 127.0.0.1 (add the chain settings):\n',
  );
  console.log(`  NODE_EXTRA_CA_CERTS=${certificate.certPath} WEBHOOK_ALLOW_PRIVATE_NETWORKS=true … npm start`);
  console.log(
    `\nThen add a live webhook endpoint with the URL ${url} in the portal (Webhooks), and restart this receiver with`,
  );
  console.log('WEBHOOK_SECRET=<the whsec_… secret it shows> to verify signatures. Ctrl-C stops it.\n');
  return server;
}
