import { z } from 'zod';
import { hashPassword, NewPassword } from '../auth/password';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/audit';
import { db } from '../db';
import { AppError } from '../errors';
import { newId } from '../ids';
import { defaultPlan, isSelfServePlan, PLAN_NAMES, type PlanName } from '../plans';

export const SignUpInput = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address').max(254)),
  password: NewPassword,
  workspaceName: z.string().trim().min(1).max(80).optional(),
  plan: z.enum(PLAN_NAMES).optional(),
});
export type SignUpInput = z.input<typeof SignUpInput>;

export interface WorkspaceView {
  id: string;
  name: string;
  plan: PlanName;
  createdAt: Date;
}

/** Creates a user, their first workspace and the owner membership in one transaction. */
export async function createUserWithWorkspace(
  input: SignUpInput,
): Promise<{ user: { id: string; email: string }; workspace: WorkspaceView }> {
  const parsed = SignUpInput.parse(input);
  const passwordHash = await hashPassword(parsed.password);
  const userId = newId('user');
  const workspaceId = newId('workspace');
  const workspaceName = parsed.workspaceName ?? `${parsed.email.split('@')[0]}'s workspace`;
  try {
    const [user, workspace] = await db().$transaction([
      db().user.create({ data: { id: userId, email: parsed.email, passwordHash }, select: { id: true } }),
      db().workspace.create({
        data: { id: workspaceId, name: workspaceName, plan: parsed.plan ?? defaultPlan() },
        select: { id: true, name: true, plan: true, createdAt: true },
      }),
      db().membership.create({ data: { userId, workspaceId, role: 'owner' } }),
    ]);
    return { user: { id: user.id, email: parsed.email }, workspace };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('email_taken', 'An account with this email already exists');
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 'P2002'
  );
}

export async function getWorkspace(workspaceId: string): Promise<WorkspaceView> {
  const workspace = await db().workspace.findUnique({
    where: { id: workspaceId },
    select: { id: true, name: true, plan: true, createdAt: true },
  });
  if (!workspace) throw new AppError('not_found', `Workspace ${workspaceId} not found`);
  return workspace;
}

export async function setWorkspacePlan(
  workspaceId: string,
  plan: PlanName,
  actor: AuditActor = SYSTEM,
): Promise<WorkspaceView> {
  const plans: readonly string[] = PLAN_NAMES;
  if (!plans.includes(plan))
    throw new AppError('validation_failed', `Unknown plan ${plan}; expected one of ${PLAN_NAMES.join(', ')}`);
  const before = await getWorkspace(workspaceId);
  return db().$transaction(async (tx) => {
    const updated = await tx.workspace.update({
      where: { id: workspaceId },
      data: { plan },
      select: { id: true, name: true, plan: true, createdAt: true },
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'plan.changed',
      actor,
      target: `workspace ${workspaceId}`,
      details: { from: before.plan, to: plan },
    });
    return updated;
  });
}

/**
 * A workspace owner's plan change from the portal: only the self-serve plans (SELF_SERVE_PLANS). Any other plan
 * is the operator's to set (`npm run admin -- plan:set`), whatever the form says; the refusal changes nothing.
 */
export async function chooseSelfServePlan(
  workspaceId: string,
  plan: PlanName,
  actor: AuditActor,
): Promise<WorkspaceView> {
  if (!isSelfServePlan(plan)) {
    throw new AppError(
      'plan_not_self_serve',
      `The ${plan} plan is set by the operator, not from the portal. Ask your operator to switch this workspace (workspace id ${workspaceId}).`,
    );
  }
  return setWorkspacePlan(workspaceId, plan, actor);
}

/** The workspaces a portal user belongs to: the only ones they may ever see or change. */
export async function listUserWorkspaces(userId: string): Promise<WorkspaceView[]> {
  const memberships = await db().membership.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { workspace: { select: { id: true, name: true, plan: true, createdAt: true } } },
  });
  return memberships.map((m) => m.workspace);
}

/** Throws not_found (never "forbidden") when the user is not a member, so ids of other tenants leak nothing. */
export async function requireMembership(userId: string, workspaceId: string): Promise<WorkspaceView> {
  const membership = await db().membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId } },
    select: { workspace: { select: { id: true, name: true, plan: true, createdAt: true } } },
  });
  if (!membership) throw new AppError('not_found', 'Workspace not found');
  return membership.workspace;
}
