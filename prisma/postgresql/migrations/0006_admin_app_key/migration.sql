-- Written by npm run db:diff, then by hand: the partial unique index (Prisma's schema cannot express one) and
-- the revocation of the keys earlier versions created for the admin app.
-- CreateEnum
CREATE TYPE "ApiKeyPurpose" AS ENUM ('client', 'admin_app');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "purpose" "ApiKeyPurpose" NOT NULL DEFAULT 'client';

-- Earlier versions made the admin app create a key for itself on every host or container it started on, named
-- "admin app (<hostname>)", its secret in a file there, and revoked none. The admin app now needs no secret (its
-- requests to /v1 are in-process): those keys are marked as the admin app's, so the listing says what they were,
-- and revoked. Timestamps are stored in UTC, as Prisma writes them.
UPDATE "api_keys"
SET "purpose" = 'admin_app', "revoked_at" = COALESCE("revoked_at", now() AT TIME ZONE 'UTC')
WHERE "name" LIKE 'admin app (%)';

-- At most one live key of the admin app per database, whatever the number of instances starting at once.
CREATE UNIQUE INDEX "api_keys_one_live_admin_app" ON "api_keys"("purpose")
WHERE "purpose" = 'admin_app' AND "revoked_at" IS NULL;

-- AlterTable: a rate-limit bucket per subject within a key (each staff member's, within the admin app's key)
ALTER TABLE "rate_limit_counters" DROP CONSTRAINT "rate_limit_counters_pkey",
ADD COLUMN "subject" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("api_key_id", "subject", "window_start");
