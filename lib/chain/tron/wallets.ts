import { db } from '../../db';

/** The base58 addresses of the Tron wallets of every workspace (base58 is case-sensitive: compared as stored). */
export async function tronWalletAddresses(): Promise<Set<string>> {
  const rows = await db().$queryRaw<
    Array<{ address: string }>
  >`SELECT DISTINCT address FROM wallets WHERE network = 'tron'`;
  return new Set(rows.map((row) => row.address));
}
