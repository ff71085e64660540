import { z } from 'zod';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/audit';
import { requireStepUp, stepUpDetail } from '../auth/step-up';
import { db } from '../db';
import { formatAmount } from '../invoices/serialize';
import { parseDecimal, pow10 } from '../rates/decimal';

/**
 * The workspace's payment tolerance (docs/rates.md): a confirmed total short of the amount by at most this
 * share of it counts as paid, with payment_exception "underpaid_within_tolerance". 0–5 %, two decimals at most.
 */
export const MAX_PAYMENT_TOLERANCE_PERCENT = 5;

const PERCENT_PATTERN = /^(0|[1-9]\d*)(\.\d{1,2})?$/;

export const PaymentTolerancePercent = z
  .string({ error: 'Enter a percentage from 0 to 5' })
  .trim()
  .regex(PERCENT_PATTERN, 'Enter a percentage from 0 to 5 with at most two decimals, such as 0.5')
  .refine((value) => {
    if (!PERCENT_PATTERN.test(value)) return true; // the regex above reports it
    const { units, scale } = parseDecimal(value);
    return units * pow10(2 - scale) <= BigInt(MAX_PAYMENT_TOLERANCE_PERCENT) * 100n;
  }, `The tolerance is at most ${MAX_PAYMENT_TOLERANCE_PERCENT} %`)
  .transform((value) => formatAmount(value));

/**
 * The tolerance of the workspace that owns the invoice row `invoice` (an alias with its dot, e.g. 'i.'), as the
 * SQL expression the transition table's settlement takes (settlementOutcomeSql's tolerancePercent): each
 * invoice settles with its own workspace's setting, also when one statement settles many.
 */
export function tolerancePercentSql(invoice: string): string {
  return `(SELECT w.payment_tolerance_percent FROM workspaces w WHERE w.id = ${invoice}workspace_id)`;
}

export async function paymentTolerancePercent(workspaceId: string): Promise<string> {
  const row = await db().workspace.findUnique({
    where: { id: workspaceId },
    select: { paymentTolerancePercent: true },
  });
  return row ? formatAmount(row.paymentTolerancePercent) : '0';
}

/**
 * Sets the tolerance. Accepting less than the amount changes which payments settle an invoice, so a portal
 * user's change needs a step-up (lib/auth/step-up.ts) like a wallet change; the change and its audit row
 * commit together.
 */
export async function setPaymentTolerancePercent(
  workspaceId: string,
  input: string,
  actor: AuditActor = SYSTEM,
): Promise<string> {
  const percent = PaymentTolerancePercent.parse(input);
  return db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor);
    const previous = await tx.workspace.findUnique({
      where: { id: workspaceId },
      select: { paymentTolerancePercent: true },
    });
    const saved = await tx.workspace.update({
      where: { id: workspaceId },
      data: { paymentTolerancePercent: percent },
      select: { paymentTolerancePercent: true },
    });
    const from = previous ? formatAmount(previous.paymentTolerancePercent) : null;
    const to = formatAmount(saved.paymentTolerancePercent);
    if (from !== to) {
      await recordAudit(tx, {
        workspaceId,
        action: 'workspace.payment_tolerance_changed',
        actor,
        target: 'payment tolerance',
        details: { from_percent: from, to_percent: to, ...stepUpDetail(proof) },
      });
    }
    return to;
  });
}
