-- AlterTable
ALTER TABLE "pets" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "etag" TEXT;

-- Added by hand (Prisma's schema cannot express it for both providers): search by name, a trigram index
-- that answers case-insensitive substring matches (ILIKE '%…%') of three or more characters. pg_trgm is a
-- trusted extension shipped with PostgreSQL (Debian: in the postgresql package itself).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "pets_name_trgm_idx" ON "pets" USING GIN ("name" gin_trgm_ops);
