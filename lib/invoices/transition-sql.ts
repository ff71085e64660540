import {
  BY_SETTLEMENT,
  INVOICE_TRANSITIONS,
  SETTLEMENT_OUTCOMES,
  type InvoiceTransition,
  type StoredInvoiceStatus,
  type TransitionGuard,
} from './state';

/**
 * The state machine's rules (lib/invoices/state.ts) as SQL fragments, for the statements that apply them
 * atomically with their events. Statuses, exceptions and guards come from the table, never from the caller, so
 * they are written as literals; the values a guard compares with (now, a payment's time, a total) are the
 * caller's SQL expressions (parameters or columns).
 */

export interface RuleContext {
  /** How the statement names the invoices row: '' (unqualified) or an alias with its dot, e.g. 'i.'. */
  invoice?: string;
  /** SQL expression of the statement's time (guards unexpired, expired_unannounced). */
  now?: string;
  /** SQL expression of the payment's inclusion time (guards included_before_expiry, included_after_expiry). */
  includedAt?: string;
}

export function statusSql(status: StoredInvoiceStatus): string {
  return `'${status}'::"InvoiceStatus"`;
}

function required(value: string | undefined, what: string, guard: TransitionGuard): string {
  if (value === undefined) throw new Error(`guard ${guard} needs ${what}`);
  return value;
}

export function guardSql(guard: TransitionGuard, ctx: RuleContext = {}): string {
  const i = ctx.invoice ?? '';
  switch (guard) {
    case 'unexpired':
      return `${i}expires_at > ${required(ctx.now, 'now', guard)}`;
    case 'expired_unannounced':
      return `${i}expires_at <= ${required(ctx.now, 'now', guard)} AND ${i}expiry_announced_at IS NULL`;
    case 'included_before_expiry':
      return `${required(ctx.includedAt, 'includedAt', guard)} < ${i}expires_at`;
    case 'included_after_expiry':
      return `${required(ctx.includedAt, 'includedAt', guard)} >= ${i}expires_at`;
    case 'no_payment_in_flight': {
      // The subquery needs the invoice row by name: unqualified statements name it by its table.
      const invoice = i === '' ? 'invoices.' : i;
      return `NOT EXISTS (SELECT 1 FROM payments f WHERE f.invoice_id = ${invoice}id AND f.status = 'pending' AND f.block_time < ${invoice}expires_at)`;
    }
    case 'none':
      return 'true';
  }
}

/** The WHERE condition of a transition: its from-state and its guard (a compare-and-set). */
export function transitionWhere(name: InvoiceTransition, ctx: RuleContext = {}): string {
  const rule = INVOICE_TRANSITIONS[name];
  const guard = guardSql(rule.guard, ctx);
  return `${ctx.invoice ?? ''}status = ${statusSql(rule.from)}${guard === 'true' ? '' : ` AND ${guard}`}`;
}

/** The new status of a transition with a fixed target. */
export function transitionToSql(name: InvoiceTransition): string {
  const to = INVOICE_TRANSITIONS[name].to;
  if (to === BY_SETTLEMENT) throw new Error(`${name}: its target is decided by settlementOutcomeSql`);
  return statusSql(to);
}

export interface SettlementInput {
  /** How the statement names the invoices row, as in RuleContext. */
  invoice?: string;
  /** SQL expression of the confirmed total: amount_received plus what is being credited now. */
  total: string;
  /** SQL expression of the workspace's payment_tolerance_percent (numeric 0–5): tolerancePercentSql. */
  tolerancePercent: string;
}

const SQL_THAN = {
  pay_amount: (i: string) => `${i}pay_amount`,
  amount: (i: string) => `${i}amount`,
  amount_less_tolerance: (i: string, tolerance: string) => `${i}amount * (100 - (${tolerance})::numeric) / 100`,
};

/**
 * The index in SETTLEMENT_OUTCOMES of the first outcome whose condition holds for `total` (an int). Compute it
 * before the UPDATE (in a CTE over the locked row): an UPDATE's RETURNING sees the new amount_received.
 */
export function settlementOutcomeSql({ invoice = '', total, tolerancePercent }: SettlementInput): string {
  const branches = SETTLEMENT_OUTCOMES.map((outcome, index) =>
    outcome.total === 'any'
      ? `ELSE ${index}`
      : `WHEN ${total} ${outcome.total} ${SQL_THAN[outcome.than](invoice, tolerancePercent)} THEN ${index}`,
  );
  return `(CASE ${branches.join(' ')} END)`;
}

function byOutcome(outcome: string, value: (row: (typeof SETTLEMENT_OUTCOMES)[number]) => string): string {
  return `(CASE ${outcome} ${SETTLEMENT_OUTCOMES.map((row, index) => `WHEN ${index} THEN ${value(row)}`).join(' ')} END)`;
}

/**
 * The SET list crediting a confirmed total to an invoice, from an outcome computed by settlementOutcomeSql:
 * status, exception and amount_received from the outcome; when it pays, paid_at, the payment fields (the
 * total, `txHash` the last payment credited) and payment_simulated = false. Unqualified columns are the row's
 * values before the update.
 */
export function settlementAssignments(credit: { outcome: string; total: string; txHash: string; now: string }): string {
  const { outcome, total, txHash, now } = credit;
  const paid = byOutcome(outcome, (row) => String(row.status === 'paid'));
  return [
    `status = ${byOutcome(outcome, (row) => statusSql(row.status))}`,
    `payment_exception = ${byOutcome(outcome, (row) => (row.exception === null ? 'NULL' : `'${row.exception}'`))}`,
    `amount_received = ${total}`,
    `paid_at = CASE WHEN ${paid} THEN ${now} ELSE paid_at END`,
    `payment_tx_hash = CASE WHEN ${paid} THEN ${txHash} ELSE payment_tx_hash END`,
    `payment_amount = CASE WHEN ${paid} THEN ${total} ELSE payment_amount END`,
    `payment_simulated = CASE WHEN ${paid} THEN false ELSE payment_simulated END`,
  ].join(', ');
}

/** The outcome a settlement statement returned (its index), as the table row. */
export function settlementOutcome(index: number) {
  const outcome = SETTLEMENT_OUTCOMES[index];
  if (!outcome) throw new Error(`no settlement outcome ${index}`);
  return outcome;
}
