-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "created_by_label" TEXT,
ADD COLUMN     "created_by_user_id" TEXT;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "active_workspace_id" TEXT;

-- CreateTable
CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_user_id" TEXT,
    "invited_by_label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by_user_id" TEXT,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_workspace_id_created_at_idx" ON "invitations"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_created_by_user_id_idx" ON "api_keys"("workspace_id", "created_by_user_id");

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Roles are the four of lib/teams/roles.ts: anything else is a bug to refuse, not to store.
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'));
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'));
