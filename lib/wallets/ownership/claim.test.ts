import { randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { db } from '../../db';
import { createUserWithWorkspace } from '../../workspaces/workspaces';
import type { AuditActor } from '../../audit/audit';
import { createSession } from '../../auth/sessions';
import { stepUp } from '../../auth/step-up';
import { removeWallet, setWallet, type SetWalletInput } from '../wallets';
import { walletClaimMessage } from './claim';
import { OWNERSHIP_VERIFIERS, tronAddressOf, tronMessageHash } from './verifiers';

const actors = new Map<string, AuditActor>();

/** A workspace and its owner's stepped-up portal session (the operator CLI is not held to the one-holder rule). */
async function workspace(): Promise<string> {
  const email = `wallet-${randomUUID()}@example.test`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: 'correct horse battery' });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: null, sessionId: session.id };
  await stepUp({ actor, password: 'correct horse battery' });
  actors.set(workspace.id, actor);
  return workspace.id;
}

function set(workspaceId: string, input: SetWalletInput) {
  return setWallet(workspaceId, input, actors.get(workspaceId));
}

/** The owner of `workspaceId` at the given moment, as settlement attributes a payment. */
async function holderAt(network: string, address: string, at: Date): Promise<string | null> {
  const [row] = await db().$queryRaw<
    Array<{ holder: string | null }>
  >`SELECT wallet_workspace_at(${network}, ${address}, ${at}) AS holder`;
  return row?.holder ?? null;
}

describe('an address is the wallet of one workspace per network unless another proves control', () => {
  it("Bob's claim of Alice's address is refused without a valid signature and accepted with one", async () => {
    const alice = privateKeyToAccount(generatePrivateKey());
    const aliceWs = await workspace();
    const bobWs = await workspace();
    await set(aliceWs, { network: 'ethereum', address: alice.address });

    await expect(set(bobWs, { network: 'ethereum', address: alice.address })).rejects.toMatchObject({
      code: 'wallet_address_claimed',
      message: expect.stringContaining(walletClaimMessage(bobWs, 'ethereum', alice.address)),
    });
    // Another spelling of the same address is the same address.
    await expect(set(bobWs, { network: 'ethereum', address: alice.address.toLowerCase() })).rejects.toMatchObject({
      code: 'wallet_address_claimed',
    });
    // A signature by another key, or Alice's signature for another workspace (replayed), proves nothing.
    const mallory = privateKeyToAccount(generatePrivateKey());
    await expect(
      set(bobWs, {
        network: 'ethereum',
        address: alice.address,
        signature: await mallory.signMessage({ message: walletClaimMessage(bobWs, 'ethereum', alice.address) }),
      }),
    ).rejects.toMatchObject({ code: 'wallet_signature_invalid' });
    await expect(
      set(bobWs, {
        network: 'ethereum',
        address: alice.address,
        signature: await alice.signMessage({ message: walletClaimMessage(aliceWs, 'ethereum', alice.address) }),
      }),
    ).rejects.toMatchObject({ code: 'wallet_signature_invalid' });
    expect(
      await db().wallet.findUnique({ where: { workspaceId_network: { workspaceId: bobWs, network: 'ethereum' } } }),
    ).toBeNull();
    // Other networks are separate: the same address on polygon is free.
    await set(bobWs, { network: 'polygon', address: alice.address });

    // With the key's signature of the message naming Bob's workspace: accepted, audited as proved.
    const signature = await alice.signMessage({ message: walletClaimMessage(bobWs, 'ethereum', alice.address) });
    await set(bobWs, { network: 'ethereum', address: alice.address, signature });
    const audit = await db().auditLog.findFirstOrThrow({
      where: { workspaceId: bobWs, action: 'wallet.set', target: 'network ethereum' },
    });
    expect(audit.details).toMatchObject({ proved_control: true });
  });

  it('the first holder gets no proof by default; a later proven holder comes first, from the moment it proved', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const squatter = await workspace();
    const rightful = await workspace();
    await set(squatter, { network: 'base', address: owner.address });
    const beforeClaim = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await set(rightful, {
      network: 'base',
      address: owner.address,
      signature: await owner.signMessage({ message: walletClaimMessage(rightful, 'base', owner.address) }),
    });
    const key = owner.address.toLowerCase();
    expect(await holderAt('base', key, beforeClaim)).toBe(squatter);
    expect(await holderAt('base', key, new Date())).toBe(rightful);
    // A removed wallet is nobody's from then on; before, it was.
    await removeWallet(rightful, 'base', actors.get(rightful));
    await removeWallet(squatter, 'base', actors.get(squatter));
    expect(await holderAt('base', key, new Date())).toBeNull();
    expect(await holderAt('base', key, beforeClaim)).toBe(squatter);
    // Free again: the next workspace needs no proof.
    await set(await workspace(), { network: 'base', address: owner.address });
  });

  it('the operator CLI may assign an address another workspace holds (trusted, like the step-up)', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    await set(await workspace(), { network: 'polygon', address });
    await setWallet(await workspace(), { network: 'polygon', address });
  });

  it('two workspaces racing for one address: exactly one gets it unproven', async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const [a, b] = [await workspace(), await workspace()];
    const results = await Promise.allSettled([
      set(a, { network: 'ethereum', address }),
      set(b, { network: 'ethereum', address }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.filter(
        (r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'wallet_address_claimed',
      ),
    ).toHaveLength(1);
  });
});

describe('per-family verifiers', () => {
  it('TRON signMessageV2: keccak-256 of "\\x19TRON Signed Message:\\n" + length + message, recovered to the base58 address', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const address = tronAddressOf(account.address);
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const message = 'I control it';
    const signature = await account.sign({ hash: tronMessageHash(message) });
    const tron = OWNERSHIP_VERIFIERS.tron!;
    expect(await tron.verify({ address, message, signature })).toBe(true);
    expect(await tron.verify({ address, message: `${message}.`, signature })).toBe(false);
    // An EIP-191 signature of the same text is not a TRON one (different prefix).
    expect(await tron.verify({ address, message, signature: await account.signMessage({ message }) })).toBe(false);
    expect(await tron.verify({ address, message, signature: '0x1234' })).toBe(false);
  });

  it('EIP-191: only the key of the address verifies; malformed signatures are false, not errors', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const evm = OWNERSHIP_VERIFIERS.evm!;
    const signature = await account.signMessage({ message: 'hello' });
    expect(await evm.verify({ address: account.address, message: 'hello', signature })).toBe(true);
    expect(await evm.verify({ address: account.address, message: 'hello!', signature })).toBe(false);
    expect(await evm.verify({ address: account.address, message: 'hello', signature: `0x${'00'.repeat(65)}` })).toBe(
      false,
    );
    expect(OWNERSHIP_VERIFIERS.bitcoin).toBeUndefined();
  });
});
