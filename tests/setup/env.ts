// Vitest setup file: runs in each test worker before the test file is imported, so that modules reading
// process.env at import time (lib/db, lib/env) see the run's own database and app server.
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('DATABASE_URL');
process.env.TEST_BASE_URL = inject('TEST_BASE_URL');
process.env.WEBHOOK_ENCRYPTION_KEY = inject('WEBHOOK_ENCRYPTION_KEY');
