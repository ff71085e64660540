/**
 * Every action the audit log records, in one place: the portal page labels them from here, and a new action
 * is added here first. Names are `<object>.<verb>`, past tense.
 */
export const AUDIT_ACTIONS = {
  'user.signed_in': 'Signed in',
  'user.stepped_up': 'Identity confirmed (step-up)',
  'user.two_factor_enabled': 'Two-factor sign-in turned on',
  'user.two_factor_disabled': 'Two-factor sign-in turned off',
  'user.oauth_linked': 'GitHub sign-in connected',
  'user.oauth_unlinked': 'GitHub sign-in disconnected',
  'user.signed_out_everywhere': 'Signed out everywhere else',
  'key.created': 'API key created',
  'key.rolled': 'API key rolled',
  'key.revoked': 'API key revoked',
  'wallet.set': 'Payout wallet set',
  'wallet.removed': 'Payout wallet removed',
  'plan.changed': 'Plan changed',
  'workspace.payment_tolerance_changed': 'Payment tolerance changed',
  'webhook_endpoint.created': 'Webhook endpoint created',
  'webhook_endpoint.changed': 'Webhook endpoint changed',
  'webhook_endpoint.secret_rolled': 'Webhook signing secret rolled',
  'webhook_endpoint.deleted': 'Webhook endpoint deleted',
  'workspace.created': 'Workspace created',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation revoked',
  'member.joined': 'Invitation accepted',
  'member.added': 'Member added',
  'member.role_changed': 'Member role changed',
  'member.removed': 'Member removed',
  'ownership.transferred': 'Ownership transferred',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}
