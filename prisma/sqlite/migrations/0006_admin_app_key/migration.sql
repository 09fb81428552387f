-- Written by hand after npm run db:diff: the diff rebuilt api_keys to add a column, which would have restarted
-- AUTOINCREMENT at the highest id left; ADD COLUMN keeps it, with the CHECK SQLite lacks for Prisma enums. The
-- partial unique index is one Prisma's schema cannot express: a future diff that rebuilds api_keys must keep it.
ALTER TABLE "api_keys" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'client' CHECK ("purpose" IN ('client', 'admin_app'));

-- Earlier versions made the admin app create a key for itself on every host or container it started on, named
-- "admin app (<hostname>)", its secret in a file there, and revoked none. The admin app now needs no secret (its
-- requests to /v1 are in-process): those keys are marked as the admin app's, so the listing says what they were,
-- and revoked. The timestamp has the form Prisma writes.
UPDATE "api_keys"
SET "purpose" = 'admin_app', "revoked_at" = COALESCE("revoked_at", strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))
WHERE "name" LIKE 'admin app (%)';

-- At most one live key of the admin app per database, whatever the number of instances starting at once.
CREATE UNIQUE INDEX "api_keys_one_live_admin_app" ON "api_keys"("purpose")
WHERE "purpose" = 'admin_app' AND "revoked_at" IS NULL;

-- A rate-limit bucket per subject within a key (each staff member's, within the admin app's key). The primary
-- key changes, so the table is rebuilt as the diff wrote it: it has no triggers, no AUTOINCREMENT, no references.
CREATE TABLE "new_rate_limit_counters" (
    "api_key_id" INTEGER NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "window_start" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("api_key_id", "subject", "window_start")
);
INSERT INTO "new_rate_limit_counters" ("api_key_id", "count", "window_start") SELECT "api_key_id", "count", "window_start" FROM "rate_limit_counters";
DROP TABLE "rate_limit_counters";
ALTER TABLE "new_rate_limit_counters" RENAME TO "rate_limit_counters";
