import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { testLaneCount } from './tests/setup/global';

const lanes = testLaneCount();

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
    // Files run in parallel, each worker on a lane of its own (database, local chain, app server: see
    // tests/setup/global.ts). Most of a file's time is spent waiting on servers, chains and workers, so two lanes
    // on two cores roughly halve the run; TEST_LANES=1 runs one file at a time.
    fileParallelism: lanes > 1,
    maxWorkers: lanes,
  },
});
