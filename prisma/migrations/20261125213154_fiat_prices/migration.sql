-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "price_amount" DECIMAL(38,18),
ADD COLUMN     "price_currency" TEXT,
ADD COLUMN     "rate" TEXT,
ADD COLUMN     "rate_at" TIMESTAMPTZ(3),
ADD COLUMN     "rate_source" TEXT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "payment_tolerance_percent" DECIMAL(3,2) NOT NULL DEFAULT 0;
