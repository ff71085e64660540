import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname)}/` }],
  },
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts', 'lib/**/*.test.ts'],
    exclude: ['node_modules/**', '.next/**', 'e2e/**'],
    // Starts a fresh PostgreSQL + `next start` for the run; see tests/setup/global.ts.
    globalSetup: ['tests/setup/global.ts'],
    // Copies the URLs from the global setup into process.env before each test file imports anything.
    setupFiles: ['tests/setup/env.ts'],
    hookTimeout: 300_000,
    testTimeout: 60_000,
    teardownTimeout: 60_000,
    // 2 cores shared with PostgreSQL and the Next server: one test file at a time.
    fileParallelism: false,
    maxWorkers: 1,
  },
});
