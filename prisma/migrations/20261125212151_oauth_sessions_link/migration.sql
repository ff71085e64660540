-- AlterTable
ALTER TABLE "oauth_link_intents" ADD COLUMN     "session_id" TEXT;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "auth_provider" TEXT NOT NULL DEFAULT 'credentials',
ADD COLUMN     "second_factor_pending" BOOLEAN NOT NULL DEFAULT false;
