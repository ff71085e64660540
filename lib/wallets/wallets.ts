import { z } from 'zod';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/audit';
import { requireStepUp, stepUpDetail } from '../auth/step-up';
import { db } from '../db';
import { AppError } from '../errors';
import { NETWORKS, type Network } from '../invoices/currencies';
import { walletAddressError } from './address';
import { assignWallet, endWalletAssignment, verifyWalletClaim } from './ownership/claim';
import { bitcoinChain } from '../chain/bitcoin/chain';
import { firstAddresses } from '../chain/bitcoin/keys';

export const SetWalletInput = z.strictObject({
  network: z.enum(NETWORKS),
  // Long enough for a Bitcoin wpkh() descriptor with its key origin and checksum.
  address: z.string().trim().min(1, 'Address is required').max(512),
  /** Only to use an address another workspace already holds: its key's signature of walletClaimMessage. */
  signature: z
    .string()
    .trim()
    .max(200, 'That is not a signature')
    .optional()
    .transform((value) => value || undefined),
});
export type SetWalletInput = z.input<typeof SetWalletInput>;

export interface WalletView {
  network: Network;
  address: string;
  updatedAt: Date;
}

/**
 * Sets the payout wallet of a network; the change and its audit row commit together. Every future live payment
 * goes to this address, so a portal user's change needs a step-up (lib/auth/step-up.ts), checked in the same
 * transaction; the audit row says which proof was given.
 */
export async function setWallet(
  workspaceId: string,
  input: SetWalletInput,
  actor: AuditActor = SYSTEM,
): Promise<WalletView> {
  const { network, address, signature } = SetWalletInput.parse(input);
  const problem = walletAddressError(network, address);
  if (problem)
    throw new AppError('invalid_wallet_address', problem, { errors: [{ path: 'address', message: problem }] });
  const verified = await verifyWalletClaim(workspaceId, network, address, signature);
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor, now);
    // At most one workspace per address and network, unless this one proved control (lib/wallets/ownership).
    await assignWallet(tx, { workspaceId, network, address, verified, byOperator: actor.userId === null }, now);
    const previous = await tx.wallet.findUnique({
      where: { workspaceId_network: { workspaceId, network } },
      select: { address: true },
    });
    const saved = await tx.wallet.upsert({
      where: { workspaceId_network: { workspaceId, network } },
      create: { workspaceId, network, address },
      update: { address },
      select: { network: true, address: true, updatedAt: true },
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'wallet.set',
      actor,
      target: `network ${network}`,
      details: {
        address,
        previous_address: previous?.address ?? null,
        ...(verified ? { proved_control: true } : {}),
        ...stepUpDetail(proof),
      },
    });
    return saved;
  });
  return { ...row, network };
}

/** Removes the payout wallet of a network (nothing to do, nothing recorded, when there is none). Step-up as setWallet. */
export async function removeWallet(workspaceId: string, network: Network, actor: AuditActor = SYSTEM): Promise<void> {
  await db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor);
    const removed = await tx.$queryRaw<{ address: string }[]>`
      DELETE FROM wallets WHERE workspace_id = ${workspaceId} AND network = ${network} RETURNING address`;
    if (removed.length === 0) return;
    await endWalletAssignment(tx, workspaceId, network, new Date());
    await recordAudit(tx, {
      workspaceId,
      action: 'wallet.removed',
      actor,
      target: `network ${network}`,
      details: { address: removed[0]?.address ?? null, ...stepUpDetail(proof) },
    });
  });
}

/**
 * The first `count` receive addresses of a Bitcoin wallet key (the portal shows three before saving, so the
 * merchant can compare them with their wallet's). A key that is refused answers invalid_wallet_address.
 */
export function bitcoinPreview(wallet: string, count = 3): Array<{ index: number; address: string }> {
  const problem = walletAddressError('bitcoin', wallet);
  if (problem)
    throw new AppError('invalid_wallet_address', problem, { errors: [{ path: 'address', message: problem }] });
  return firstAddresses(wallet, bitcoinChain(), count).map(({ index, address }) => ({ index, address }));
}

export async function listWallets(workspaceId: string): Promise<WalletView[]> {
  const rows = await db().wallet.findMany({ where: { workspaceId }, orderBy: { network: 'asc' } });
  return rows.map((row) => ({ network: row.network as Network, address: row.address, updatedAt: row.updatedAt }));
}
