-- Written by hand, as npm run db:diff would, with the trigger that keeps the audit trail append-only (Prisma's
-- schema cannot express one). No semicolon may appear but between statements, not even in a comment or a
-- function's body: @prisma/adapter-pg runs a migration by splitting its text at every one. The trigger
-- function's body is therefore an E'' string whose semicolons are written \073.

-- CreateEnum
CREATE TYPE "StaffRole" AS ENUM ('staff', 'admin');

-- AlterTable. The accounts an earlier version made could all do everything the app offered: the oldest one
-- becomes the store's first admin, so that someone can manage keys and staff in the app after the upgrade.
ALTER TABLE "staff" ADD COLUMN "role" "StaffRole" NOT NULL DEFAULT 'staff';
UPDATE "staff" SET "role" = 'admin' WHERE "id" = (SELECT MIN("id") FROM "staff" WHERE "disabled_at" IS NULL);

-- AlterTable: who created a key, as the keys page shows it.
ALTER TABLE "api_keys" ADD COLUMN "created_by" TEXT;

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" INTEGER,
    "actor_label" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "target_label" TEXT,
    "details" TEXT,
    "client_address" TEXT,
    "request_id" TEXT,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
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
CREATE FUNCTION "audit_events_refuse_update"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN RAISE EXCEPTION ''audit_events is append-only''\073 END\073';
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE ON "audit_events"
FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_update"();

-- CreateTable
CREATE TABLE "api_key_daily_calls" (
    "api_key_id" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "last_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "api_key_daily_calls_pkey" PRIMARY KEY ("api_key_id","operation","day")
);
