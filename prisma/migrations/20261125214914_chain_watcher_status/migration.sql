-- CreateTable
CREATE TABLE "chain_watcher_status" (
    "network" TEXT NOT NULL,
    "head_block" BIGINT NOT NULL,
    "scanned_block" BIGINT NOT NULL,
    "last_pass_at" TIMESTAMPTZ(3) NOT NULL,
    "caught_up_at" TIMESTAMPTZ(3),

    CONSTRAINT "chain_watcher_status_pkey" PRIMARY KEY ("network")
);
