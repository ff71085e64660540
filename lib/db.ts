import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';
import { databaseUrl, env } from './env';

// One client per process; Next's dev server reloads modules, so keep it on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl(), max: env().DATABASE_POOL_SIZE });
  return new PrismaClient({ adapter, omit: { apiKey: { secretHash: true }, user: { passwordHash: true } } });
}

export function db(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  globalForPrisma.prisma = undefined;
}

export type { Prisma } from './generated/prisma/client';
