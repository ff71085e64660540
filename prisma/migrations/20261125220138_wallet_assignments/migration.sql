-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "wallet_workspace_id" TEXT;

-- CreateTable
CREATE TABLE "wallet_assignments" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address_key" TEXT NOT NULL,
    "verified_at" TIMESTAMPTZ(3),
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_to" TIMESTAMPTZ(3),

    CONSTRAINT "wallet_assignments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "wallet_assignments_network_address_key_valid_from_idx" ON "wallet_assignments"("network", "address_key", "valid_from");

-- CreateIndex
CREATE INDEX "wallet_assignments_workspace_id_network_idx" ON "wallet_assignments"("workspace_id", "network");

-- CreateIndex
CREATE INDEX "payments_wallet_workspace_id_status_idx" ON "payments"("wallet_workspace_id", "status");

-- AddForeignKey
ALTER TABLE "wallet_assignments" ADD CONSTRAINT "wallet_assignments_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing wallets: assigned since they were last set (all the wallet table knows), and a payment already recorded is
-- attributed as the wallet table says today (the best information there is), earliest-set first.
INSERT INTO "wallet_assignments" ("workspace_id", "network", "address_key", "valid_from")
SELECT "workspace_id", "network", CASE WHEN "network" IN ('ethereum', 'polygon', 'base') THEN lower("address") ELSE "address" END, "updated_at"
  FROM "wallets";

UPDATE "payments" p SET "wallet_workspace_id" = (
  SELECT w."workspace_id" FROM "wallets" w
   WHERE w."network" = p."network" AND lower(w."address") = lower(p."to_address")
   ORDER BY w."updated_at", w."workspace_id" LIMIT 1);
