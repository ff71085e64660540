import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { attachPayment, listUnmatchedPayments } from '@/lib/chain/unmatched';
import { walletClaimMessage } from '@/lib/wallets/ownership/claim';
import { setWallet } from '@/lib/wallets/wallets';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freshAddress, mineToConfirm, pay, watcher } from '../support/chain';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';

// Unmatched payments (docs/settlement.md): listed for the workspace whose wallet received them; attaching one to a live
// invoice adds to amount_received: paid at amount (overpaid above pay_amount), underpaid below.

describe('unmatched payments', () => {
  it('attach: underpaid first, then paid and overpaid; each payment attaches once; other workspaces see nothing', async () => {
    const account = await seedAccount({ environment: 'live' });
    const address = freshAddress();
    await setWallet(account.workspace.id, { network: 'ethereum', address });
    const invoice = (
      await call('POST', '/v1/invoices', {
        key: account.secret,
        body: { amount: '10', currency: 'USDT', network: 'ethereum' },
      })
    ).json;
    const w = watcher();
    const fiveHash = await pay(invoice.payment_uri, { units: () => 5_000_000n });
    const sixHash = await pay(invoice.payment_uri, { units: () => 6_000_000n });
    await w.tick();
    await mineToConfirm();
    await w.tick();
    const listed = await listUnmatchedPayments(account.workspace.id);
    expect(listed.map((p) => [p.txHash, p.amount])).toEqual([
      [sixHash, '6'],
      [fiveHash, '5'],
    ]);
    const stranger = await seedAccount({ environment: 'live' });
    expect(await listUnmatchedPayments(stranger.workspace.id)).toEqual([]);
    await expect(attachPayment(stranger.workspace.id, listed[1]!.id, invoice.id)).rejects.toMatchObject({
      code: 'not_found',
    });

    expect(await attachPayment(account.workspace.id, listed[1]!.id, invoice.id)).toEqual({
      status: 'pending',
      paymentException: 'underpaid',
    });
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: account.secret })).json).toMatchObject({
      status: 'pending',
      amount_received: '5',
      payment_exception: 'underpaid',
    });
    await expect(attachPayment(account.workspace.id, listed[1]!.id, invoice.id)).rejects.toMatchObject({
      code: 'not_found',
    });

    expect(await attachPayment(account.workspace.id, listed[0]!.id, invoice.id)).toEqual({
      status: 'paid',
      paymentException: 'overpaid',
    });
    const paid = (await call('GET', `/v1/invoices/${invoice.id}`, { key: account.secret })).json;
    expect(paid).toMatchObject({
      status: 'paid',
      amount_received: '11',
      payment_exception: 'overpaid',
      payment: { tx_hash: sixHash, amount: '11' },
    });
    expect(paid.payments.map((p: { tx_hash: string }) => p.tx_hash).sort()).toEqual([fiveHash, sixHash].sort());
    expect(await listUnmatchedPayments(account.workspace.id)).toEqual([]);
    const types = (
      await db().event.findMany({ where: { workspaceId: account.workspace.id }, orderBy: { seq: 'asc' } })
    ).map((e) => e.type);
    expect(types).toEqual(['invoice.created', 'payment.unmatched', 'payment.unmatched', 'invoice.paid']);
  });

  it("Alice's payment is never Bob's: attribution is by the wallet holder at block time, not the wallet table now", async () => {
    const key = privateKeyToAccount(generatePrivateKey());
    const alice = await seedAccount({ environment: 'live' });
    await setWallet(alice.workspace.id, { network: 'ethereum', address: key.address });
    const invoice = (
      await call('POST', '/v1/invoices', {
        key: alice.secret,
        body: { amount: '10', currency: 'USDT', network: 'ethereum' },
      })
    ).json;
    const w = watcher();
    const aliceHash = await pay(invoice.payment_uri, { units: () => 3_000_000n });
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect((await listUnmatchedPayments(alice.workspace.id)).map((p) => p.txHash)).toEqual([aliceHash]);

    // Bob takes the same address later, with a valid signature of his claim: the earlier payment stays Alice's.
    const bob = await seedAccount({ environment: 'live' });
    const signature = await key.signMessage({ message: walletClaimMessage(bob.workspace.id, 'ethereum', key.address) });
    await setWallet(bob.workspace.id, { network: 'ethereum', address: key.address, signature });
    expect(await listUnmatchedPayments(bob.workspace.id)).toEqual([]);
    const aliceUnmatched = (await listUnmatchedPayments(alice.workspace.id))[0]!;
    const bobInvoice = (
      await call('POST', '/v1/invoices', {
        key: bob.secret,
        body: { amount: '3', currency: 'USDT', network: 'ethereum' },
      })
    ).json;
    await expect(attachPayment(bob.workspace.id, aliceUnmatched.id, bobInvoice.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await db().event.count({ where: { workspaceId: bob.workspace.id, type: 'payment.unmatched' } })).toBe(0);
    expect(await db().event.count({ where: { workspaceId: alice.workspace.id, type: 'payment.unmatched' } })).toBe(1);
    // Alice can still attach her payment.
    expect(await attachPayment(alice.workspace.id, aliceUnmatched.id, invoice.id)).toMatchObject({
      status: 'pending',
      paymentException: 'underpaid',
    });
  });
});
