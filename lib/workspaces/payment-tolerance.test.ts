import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../audit/audit';
import { stepUp } from '../auth/step-up';
import { createSession } from '../auth/sessions';
import { db } from '../db';
import { createUserWithWorkspace } from './workspaces';
import { PaymentTolerancePercent, paymentTolerancePercent, setPaymentTolerancePercent } from './payment-tolerance';

const PASSWORD = 'correct horse battery';

async function signedIn() {
  const email = `tolerance-${randomUUID()}@example.test`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: PASSWORD, plan: 'Developer' });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: '203.0.113.5', sessionId: session.id } satisfies AuditActor;
  return { workspaceId: workspace.id, actor };
}

describe('payment_tolerance_percent', () => {
  it('accepts 0–5 with at most two decimals, exactly', () => {
    for (const ok of ['0', '5', '5.00', '0.01', '2.5', '4.99'])
      expect(PaymentTolerancePercent.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['5.01', '6', '-1', '0.001', '1e0', 'abc', '', '1,5'])
      expect(PaymentTolerancePercent.safeParse(bad).success, bad).toBe(false);
    expect(PaymentTolerancePercent.parse('2.50')).toBe('2.5');
  });

  it('defaults to 0; a change needs a step-up and is audited with the old and new values', async () => {
    const { workspaceId, actor } = await signedIn();
    expect(await paymentTolerancePercent(workspaceId)).toBe('0');
    await expect(setPaymentTolerancePercent(workspaceId, '2.5', actor)).rejects.toMatchObject({
      code: 'step_up_required',
    });
    expect(await paymentTolerancePercent(workspaceId)).toBe('0');

    await stepUp({ actor, password: PASSWORD });
    expect(await setPaymentTolerancePercent(workspaceId, '2.50', actor)).toBe('2.5');
    expect(await paymentTolerancePercent(workspaceId)).toBe('2.5');
    const audit = await db().auditLog.findMany({
      where: { workspaceId, action: 'workspace.payment_tolerance_changed' },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ from_percent: '0', to_percent: '2.5', step_up: expect.any(String) });
    await expect(setPaymentTolerancePercent(workspaceId, '5.01', actor)).rejects.toThrow();
    expect(await paymentTolerancePercent(workspaceId)).toBe('2.5');
  });
});
