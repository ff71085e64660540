-- AlterTable
ALTER TABLE "payments" ALTER COLUMN "block_number" DROP NOT NULL,
ALTER COLUMN "block_hash" DROP NOT NULL,
ALTER COLUMN "block_time" DROP NOT NULL;

-- CreateTable
CREATE TABLE "bitcoin_address_counters" (
    "network" TEXT NOT NULL,
    "account_key" TEXT NOT NULL,
    "next_index" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "bitcoin_address_counters_pkey" PRIMARY KEY ("network","account_key")
);

-- CreateTable
CREATE TABLE "bitcoin_addresses" (
    "network" TEXT NOT NULL,
    "script_pubkey" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "account_key" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bitcoin_addresses_pkey" PRIMARY KEY ("network","script_pubkey")
);

-- CreateIndex
CREATE UNIQUE INDEX "bitcoin_addresses_invoice_id_key" ON "bitcoin_addresses"("invoice_id");

-- CreateIndex
CREATE INDEX "bitcoin_addresses_workspace_id_network_derivation_index_idx" ON "bitcoin_addresses"("workspace_id", "network", "derivation_index" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "bitcoin_addresses_network_account_key_derivation_index_key" ON "bitcoin_addresses"("network", "account_key", "derivation_index");

-- AddForeignKey
ALTER TABLE "bitcoin_addresses" ADD CONSTRAINT "bitcoin_addresses_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bitcoin_addresses" ADD CONSTRAINT "bitcoin_addresses_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE UNIQUE INDEX "bitcoin_addresses_network_address_key" ON "bitcoin_addresses"("network", "address");
