// Prisma CLI configuration (Prisma 7: the datasource URL lives here, not in schema.prisma).
// DATABASE_URL may be unset (e.g. `prisma generate` during `npm install`): generate never connects,
// so the URL is only read when it is there.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(url ? { datasource: { url } } : {}),
});
