-- AlterTable
ALTER TABLE "usage_daily" ADD COLUMN     "window_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "window_start" TIMESTAMPTZ(0);

-- DropTable
DROP TABLE "rate_limit_windows";
