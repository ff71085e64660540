import { z } from 'zod';
import { db } from '../db';
import { AppError } from '../errors';
import { NETWORKS, type Network } from '../invoices/currencies';
import { walletAddressError } from './address';

export const SetWalletInput = z.strictObject({
  network: z.enum(NETWORKS),
  address: z.string().trim().min(1, 'Address is required').max(128),
});
export type SetWalletInput = z.input<typeof SetWalletInput>;

export interface WalletView {
  network: Network;
  address: string;
  updatedAt: Date;
}

export async function setWallet(workspaceId: string, input: SetWalletInput): Promise<WalletView> {
  const { network, address } = SetWalletInput.parse(input);
  const problem = walletAddressError(network, address);
  if (problem) throw new AppError('invalid_wallet_address', problem, { errors: [{ path: 'address', message: problem }] });
  const row = await db().wallet.upsert({
    where: { workspaceId_network: { workspaceId, network } },
    create: { workspaceId, network, address },
    update: { address },
    select: { network: true, address: true, updatedAt: true },
  });
  return { ...row, network };
}

export async function removeWallet(workspaceId: string, network: Network): Promise<void> {
  await db().wallet.deleteMany({ where: { workspaceId, network } });
}

export async function listWallets(workspaceId: string): Promise<WalletView[]> {
  const rows = await db().wallet.findMany({ where: { workspaceId }, orderBy: { network: 'asc' } });
  return rows.map((row) => ({ network: row.network as Network, address: row.address, updatedAt: row.updatedAt }));
}
