// Launches the app server (scripts/server.ts) with tsx's TypeScript loader active only while our own modules
// load: once they have, the loader is removed, so the requires Next makes while serving (route modules, chunks)
// run at plain Node speed. Measured (docs/benchmarks.md): with `node --import tsx` kept for the process, the
// server spent ≈ 0.5 ms more CPU per request than `next start`.
const { register } = require('tsx/cjs/api');

const unregister = register();
const { startServer } = require('./server.ts');
unregister();
startServer(process.argv.includes('--dev'));
