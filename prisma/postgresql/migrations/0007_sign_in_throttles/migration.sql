-- CreateTable
CREATE TABLE "sign_in_throttles" (
    "bucket" TEXT NOT NULL,
    "window_start" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("bucket","window_start")
);

-- CreateTable
CREATE TABLE "sign_in_locks" (
    "email" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" BIGINT,
    "signed_in_at" BIGINT,
    "updated_at" BIGINT NOT NULL,

    CONSTRAINT "sign_in_locks_pkey" PRIMARY KEY ("email","address")
);

-- CreateIndex
CREATE INDEX "sign_in_throttles_window_start_idx" ON "sign_in_throttles"("window_start");

-- CreateIndex
CREATE INDEX "sign_in_locks_updated_at_idx" ON "sign_in_locks"("updated_at");
