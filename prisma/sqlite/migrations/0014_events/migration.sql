-- The outbox (lib/events/): one row per change to a pet, an order or a category, written in the same
-- transaction as the change: the events feed (GET /v1/events) reads it in id order.
-- CreateTable
CREATE TABLE "events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL,
    "occurred_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" TEXT NOT NULL,
    "previous" TEXT
);

-- CreateIndex
CREATE INDEX "events_type_id_idx" ON "events"("type", "id");
