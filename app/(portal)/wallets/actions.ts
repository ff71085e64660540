'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { NETWORKS } from '@/lib/invoices/currencies';
import { withWorkspace } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';
import { bitcoinPreview, removeWallet, setWallet, SetWalletInput } from '@/lib/wallets/wallets';

export const saveWallet = withWorkspace({ permission: 'wallets.manage' }, SetWalletInput, async (ctx, input) => {
  const wallet = await setWallet(ctx.workspace.id, input, await portalActor(ctx));
  revalidatePath('/wallets');
  return { network: wallet.network, address: wallet.address };
});

/** The first three receive addresses of a Bitcoin wallet key, shown before it is saved (nothing is stored). */
export const previewBitcoinWallet = withWorkspace(
  { permission: 'wallets.manage' },
  z.strictObject({ address: z.string().trim().min(1, 'Enter an extended public key or a wpkh() descriptor').max(512) }),
  async (_ctx, input) => ({ wallet: input.address, addresses: bitcoinPreview(input.address) }),
);

export const deleteWallet = withWorkspace(
  { permission: 'wallets.manage' },
  z.object({ network: z.enum(NETWORKS) }),
  async (ctx, input) => {
    await removeWallet(ctx.workspace.id, input.network, await portalActor(ctx));
    revalidatePath('/wallets');
    return { network: input.network };
  },
);
