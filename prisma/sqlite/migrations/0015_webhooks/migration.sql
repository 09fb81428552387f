-- Webhooks (lib/webhooks/): the endpoints admins add, and one delivery row per event (or test message) to send
-- to an endpoint, with its attempts: the worker leases due rows, sends them and records how each went.
-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "url" TEXT NOT NULL,
    "event_types" TEXT,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" DATETIME,
    "state" TEXT NOT NULL DEFAULT 'enabled',
    "disabled_at" DATETIME,
    "disabled_reason" TEXT,
    "failing_since" DATETIME,
    "last_event_id" BIGINT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "endpoint_id" INTEGER NOT NULL,
    "event_id" BIGINT,
    "event_type" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "payload" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME,
    "lease_owner" TEXT,
    "last_attempt_at" DATETIME,
    "last_status" INTEGER,
    "last_error" TEXT,
    "last_duration_ms" INTEGER,
    "last_response" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_next_attempt_at_idx" ON "webhook_deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_id_idx" ON "webhook_deliveries"("endpoint_id", "id");
