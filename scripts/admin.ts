/** `npm run admin`: the operator CLI (scripts/admin-cli.ts) as a process, on its standard streams and environment. */
import { runAdmin, type AdminIo } from './admin-cli';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

const io: AdminIo = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  readStdin,
  env: process.env,
};

runAdmin(process.argv.slice(2), io)
  .then(async (code) => {
    const { disconnectDb } = await import('../lib/db');
    await disconnectDb();
    return code;
  })
  .then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
