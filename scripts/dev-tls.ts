// A self-signed TLS certificate for 127.0.0.1 and localhost, for local https webhook receivers: live webhook
// endpoints must use https (docs/webhooks.md), so trying live webhooks on a laptop needs a receiver whose certificate
// the worker trusts — through NODE_EXTRA_CA_CERTS=<cert.pem>, which Node adds to its root store at start-up.
// Used by `npm run chain -- receiver` and the Playwright live-payment flow. Written with node:crypto alone (a
// DER-encoded X.509 v3 certificate, ECDSA P-256): no openssl binary, no package.
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface DevCertificate {
  /** PEM: the certificate (also the CA to trust: it is self-signed). */
  cert: string;
  /** PEM: its PKCS#8 private key. */
  key: string;
  certPath: string;
  keyPath: string;
}

// DER, the few types a certificate needs.
function lengthBytes(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return [0x80 | bytes.length, ...bytes];
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag, ...lengthBytes(body.length)]), body]);
};
const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const octets = (...parts: Buffer[]) => tlv(0x04, ...parts);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const boolTrue = () => tlv(0x01, Buffer.from([0xff]));
function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let n = arc >> 7; n > 0; n >>= 7) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}
/** UTCTime, YYMMDDHHMMSSZ (valid until 2049). */
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  return tlv(
    0x17,
    Buffer.from(
      `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`,
    ),
  );
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';

/** A new self-signed certificate for 127.0.0.1, ::1 and localhost, valid from an hour ago for `days`. */
export function createDevCertificate(days = 365): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // a positive INTEGER
  const name = sequence(set(sequence(oid('2.5.4.3'), utf8('localhost (crypto-invoicing development)'))));
  const now = Date.now();
  const extensions = sequence(
    // basicConstraints, critical: CA:TRUE — it is its own trust anchor.
    sequence(oid('2.5.29.19'), boolTrue(), octets(sequence(boolTrue()))),
    // subjectAltName: DNS localhost, IP 127.0.0.1, IP ::1.
    sequence(
      oid('2.5.29.17'),
      octets(
        sequence(
          tlv(0x82, Buffer.from('localhost')),
          tlv(0x87, Buffer.from([127, 0, 0, 1])),
          tlv(0x87, Buffer.from([...new Array(15).fill(0), 1])),
        ),
      ),
    ),
  );
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version 3
    tlv(0x02, serial),
    sequence(oid(ECDSA_WITH_SHA256)),
    name,
    sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + days * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER-encoded ECDSA signature
  const der = sequence(tbs, sequence(oid(ECDSA_WITH_SHA256)), tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END CERTIFICATE-----\n`;
  // Parsed back and checked, so a malformed encoding fails here rather than in a TLS handshake.
  const parsed = new X509Certificate(cert);
  if (!parsed.verify(publicKey) || !parsed.checkIP('127.0.0.1'))
    throw new Error('generated certificate does not verify');
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/**
 * The certificate kept in `dir` (cert.pem, key.pem 0600), created on first use and again when it has expired:
 * the path given to NODE_EXTRA_CA_CERTS stays the same across runs.
 */
export function ensureDevCertificate(dir: string): DevCertificate {
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, 'utf8');
    if (new Date(new X509Certificate(cert).validTo).getTime() > Date.now() + 86_400_000)
      return { cert, key: readFileSync(keyPath, 'utf8'), certPath, keyPath };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { cert, key } = createDevCertificate();
  writeFileSync(keyPath, key, { mode: 0o600 });
  writeFileSync(certPath, cert);
  return { cert, key, certPath, keyPath };
}
