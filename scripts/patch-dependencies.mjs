// Run after every install (package.json "postinstall"): small fixes to dependencies that have no release yet.
// Each patch is idempotent and checks that the code it changes is still there; if an upgrade changed it, the
// install fails with a message, so the fix is looked at again rather than silently lost.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * postgres.js 3.4.9: when PostgreSQL ends a connection during a statement (pg_terminate_backend, a failover), the
 * FATAL error it sent stays in the connection's `errorResponse` after the socket closes. The connection reconnects
 * on its next use, and the first statement on the new connection is rejected with that old error
 * (https://github.com/porsager/postgres/issues/1223). The API would answer 503 to a request that never reached
 * the database, seconds or hours after the failover. The patch forgets the error when the socket closes; the
 * statement in flight still gets CONNECTION_CLOSED, as before.
 */
const POSTGRES_CLOSED = {
  name: 'postgres.js: forget the error of a closed connection',
  files: [
    'node_modules/postgres/src/connection.js',
    'node_modules/postgres/cjs/src/connection.js',
    'node_modules/postgres/cf/src/connection.js',
  ],
  find: '  async function closed(hadError) {\n',
  marker: '    errorResponse = null // patched: scripts/patch-dependencies.mjs\n',
};

function apply(patch) {
  for (const relative of patch.files) {
    const file = path.join(root, relative);
    if (!existsSync(file)) continue;
    const source = readFileSync(file, 'utf8');
    if (source.includes(patch.marker)) continue;
    if (!source.includes(patch.find)) {
      throw new Error(`${patch.name}: ${relative} no longer contains the code this patch changes; look at it again`);
    }
    writeFileSync(file, source.replace(patch.find, patch.find + patch.marker));
  }
}

apply(POSTGRES_CLOSED);
