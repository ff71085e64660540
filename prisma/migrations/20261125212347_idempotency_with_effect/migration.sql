-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "response_at" TIMESTAMPTZ(3),
ADD COLUMN     "response_snapshot" JSONB;
