import type { Prisma } from '../../db';
import { AppError } from '../../errors';
import { NETWORK_FAMILY, type Network } from '../../invoices/currencies';
import { walletClaimMessage } from './message';
import { OWNERSHIP_VERIFIERS } from './verifiers';

export { walletClaimMessage };

/**
 * An address is the wallet of at most one workspace per network, unless a further workspace proves control of it
 * with a signed message — otherwise anyone could enter someone else's address and see (and attach) that
 * merchant's unmatched payments and receive their `payment.unmatched` events. History is kept in
 * wallet_assignments, and payments are attributed by the holder at their block time (wallet_workspace_at).
 */

/** The canonical form two spellings of one address share (EVM: lower-case hex; others are case-sensitive). */
export function walletAddressKey(network: Network, address: string): string {
  return NETWORK_FAMILY[network] === 'evm' ? address.toLowerCase() : address;
}

/** Checks a claim's signature; true when valid, false when none was given; refuses an invalid one. */
export async function verifyWalletClaim(
  workspaceId: string,
  network: Network,
  address: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature) return false;
  const verifier = OWNERSHIP_VERIFIERS[NETWORK_FAMILY[network]];
  const message = walletClaimMessage(workspaceId, network, address);
  if (!verifier || !(await verifier.verify({ address, message, signature }))) {
    const text = verifier
      ? "The signature does not prove control of this address: it must be the address's signature of the message shown."
      : `Signed claims are not supported for ${network} yet.`;
    throw new AppError('wallet_signature_invalid', text, { errors: [{ path: 'signature', message: text }] });
  }
  return true;
}

/**
 * Records, inside setWallet's transaction, that `address` is this workspace's wallet from `now`. Refuses
 * (`wallet_address_claimed`) when another workspace holds the address and a portal user brought no valid signature.
 * Claims of one address are serialised by a transaction lock, so two workspaces cannot both slip in unproven.
 */
export async function assignWallet(
  tx: Prisma.TransactionClient,
  input: { workspaceId: string; network: Network; address: string; verified: boolean; byOperator: boolean },
  now: Date,
): Promise<void> {
  const { workspaceId, network, address, verified, byOperator } = input;
  const key = walletAddressKey(network, address);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`wallet:${network}:${key}`}, 0))`;
  const holders = await tx.walletAssignment.count({
    where: { network, addressKey: key, validTo: null, workspaceId: { not: workspaceId } },
  });
  // The operator (admin CLI, no portal user) is trusted as for step-up: it may assign a shared address knowingly.
  if (holders > 0 && !verified && !byOperator) {
    const verifier = OWNERSHIP_VERIFIERS[NETWORK_FAMILY[network]];
    const text = verifier
      ? `This address is already the ${network} wallet of another workspace. To use it here too, prove you control it: ${verifier.howToSign}, then paste the signature. Message: "${walletClaimMessage(workspaceId, network, address)}"`
      : `This ${network} wallet is already used by another workspace, and proof of control for ${network} is not available yet.`;
    throw new AppError('wallet_address_claimed', text, { errors: [{ path: 'signature', message: text }] });
  }
  const open = await tx.walletAssignment.findFirst({
    where: { workspaceId, network, validTo: null },
    select: { id: true, addressKey: true, verifiedAt: true },
  });
  if (open?.addressKey === key) {
    if (verified && !open.verifiedAt)
      await tx.walletAssignment.update({ where: { id: open.id }, data: { verifiedAt: now } });
    return;
  }
  await endWalletAssignment(tx, workspaceId, network, now);
  await tx.walletAssignment.create({
    data: { workspaceId, network, addressKey: key, verifiedAt: verified ? now : null, validFrom: now },
  });
}

/** The workspace's wallet on the network ends now (changed or removed): later payments are no longer its own. */
export async function endWalletAssignment(
  tx: Prisma.TransactionClient,
  workspaceId: string,
  network: Network,
  now: Date,
): Promise<void> {
  await tx.walletAssignment.updateMany({ where: { workspaceId, network, validTo: null }, data: { validTo: now } });
}
