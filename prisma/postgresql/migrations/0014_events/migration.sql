-- The outbox (lib/events/): one row per change to a pet, an order or a category, written in the same
-- transaction as the change: the events feed (GET /v1/events) reads it in id order.
-- CreateTable
CREATE TABLE "events" (
    "id" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" TEXT NOT NULL,
    "previous" TEXT,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "events_type_id_idx" ON "events"("type", "id");
