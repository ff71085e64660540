export { AUDIT_ACTIONS, auditActionLabel, type AuditAction } from './actions';
export { listAudit, OPERATOR, recordAudit, SYSTEM, type AuditActor, type AuditEntry, type AuditRow, type AuditWriter } from './audit';
