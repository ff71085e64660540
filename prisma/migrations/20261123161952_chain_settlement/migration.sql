-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('pending', 'confirmed', 'reverted');

-- AlterEnum
ALTER TYPE "InvoiceStatus" ADD VALUE 'processing';

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "amount_received" DECIMAL(38,18) NOT NULL DEFAULT 0,
ADD COLUMN     "has_payments" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "pay_amount" DECIMAL(38,18),
ADD COLUMN     "payment_exception" TEXT,
ADD COLUMN     "redirect_url" TEXT;

-- Existing invoices keep their meaning: the amount to send is the amount (they were created before any
-- network was watched, so none holds a reservation). Paid ones were paid by the simulator, whose payment
-- is read as amount_received (lib/invoices/serialize.ts).
UPDATE "invoices" SET "pay_amount" = "amount";
ALTER TABLE "invoices" ALTER COLUMN "pay_amount" SET NOT NULL;

-- CreateTable
CREATE TABLE "amount_reservations" (
    "network" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "pay_amount" DECIMAL(38,18) NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "reserved_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "amount_reservations_pkey" PRIMARY KEY ("network","currency","address","pay_amount")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" DECIMAL(38,18) NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_hash" TEXT NOT NULL,
    "block_time" TIMESTAMPTZ(3) NOT NULL,
    "status" "PaymentStatus" NOT NULL DEFAULT 'pending',
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "invoice_id" TEXT,
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmed_at" TIMESTAMPTZ(3),

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_cursors" (
    "network" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "last_block" BIGINT NOT NULL,
    "last_block_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_cursors_pkey" PRIMARY KEY ("network")
);

-- CreateIndex
CREATE INDEX "amount_reservations_invoice_id_idx" ON "amount_reservations"("invoice_id");

-- CreateIndex
CREATE INDEX "payments_invoice_id_idx" ON "payments"("invoice_id");

-- CreateIndex
CREATE INDEX "payments_network_status_idx" ON "payments"("network", "status");

-- CreateIndex
CREATE INDEX "payments_network_to_address_idx" ON "payments"("network", "to_address");

-- CreateIndex
CREATE UNIQUE INDEX "payments_network_tx_hash_log_index_key" ON "payments"("network", "tx_hash", "log_index");

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- An invoice's payments as the JSON arrays lib/invoices/queries.ts maps (oldest first), for the invoice column
-- list: called with the outer row's id, so that list needs no table alias. SQL-standard body (no dollar quotes).
CREATE FUNCTION invoice_payments_json(invoice_id TEXT) RETURNS JSON LANGUAGE sql STABLE
RETURN (SELECT COALESCE(json_agg(json_build_array(pm.id, pm.tx_hash, pm.log_index, pm.network, pm.currency, pm.amount::text,
          pm.from_address, pm.block_number::text, pm.status, pm.confirmations, pm.detected_at, pm.confirmed_at)
          ORDER BY pm.detected_at, pm.id), '[]'::json)
        FROM payments pm WHERE pm.invoice_id = invoice_payments_json.invoice_id);
