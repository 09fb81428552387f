-- Written by hand, as npm run db:diff would for new tables, with ADD COLUMN for the new columns (a rebuild of
-- staff or api_keys would restart AUTOINCREMENT at the highest id left), the CHECK that SQLite lacks for Prisma
-- enums, and the trigger that keeps the audit trail append-only (Prisma's schema cannot express either).

-- Staff roles. The accounts an earlier version made could all do everything the app offered: the oldest one
-- becomes the store's first admin, so that someone can manage keys and staff in the app after the upgrade.
ALTER TABLE "staff" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'staff' CHECK ("role" IN ('staff', 'admin'));
UPDATE "staff" SET "role" = 'admin' WHERE "id" = (SELECT MIN("id") FROM "staff" WHERE "disabled_at" IS NULL);

-- Who created a key, as the keys page shows it.
ALTER TABLE "api_keys" ADD COLUMN "created_by" TEXT;

-- CreateTable
CREATE TABLE "audit_events" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" INTEGER,
    "actor_label" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "target_label" TEXT,
    "details" TEXT,
    "client_address" TEXT,
    "request_id" TEXT
);

-- CreateIndex
CREATE INDEX "audit_events_actor_type_actor_id_id_idx" ON "audit_events"("actor_type", "actor_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_action_id_idx" ON "audit_events"("action", "id");

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_id_idx" ON "audit_events"("target_type", "target_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");

-- Append-only: a record is never changed. Rows leave only by the retention sweep (AUDIT_RETENTION_DAYS).
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE ON "audit_events"
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;

-- CreateTable
CREATE TABLE "api_key_daily_calls" (
    "api_key_id" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "last_at" DATETIME NOT NULL,

    PRIMARY KEY ("api_key_id", "operation", "day")
);
