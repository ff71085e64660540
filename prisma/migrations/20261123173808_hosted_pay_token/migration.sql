-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "pay_token" TEXT NOT NULL DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');

-- CreateIndex
CREATE UNIQUE INDEX "invoices_pay_token_key" ON "invoices"("pay_token");
