-- Written by hand (Prisma's schema cannot express expression indexes, nor triggers): listPets' sorted orders and
-- exact status counts. No semicolon may appear but between statements, not even in a comment or a function's
-- body: @prisma/adapter-pg runs a migration by splitting its text at every one (function bodies write \073).
--
-- Name order ignores the case of ASCII letters and compares everything else by code point: lower() under the
-- "C" collation folds A-Z only, and "C" compares the UTF-8 bytes, whose order is the code points' order. This
-- is SQLite's NOCASE exactly (its 0009), so both databases list names alike. Queries must write the same
-- expression, lower("name" COLLATE "C"), for the planner to use these indexes. Ties are broken by id. Newest
-- first walks the primary key, or (status, id), backwards: no index of its own.
CREATE INDEX "pets_name_id_idx" ON "pets"(lower("name" COLLATE "C"), "id");

CREATE INDEX "pets_status_name_id_idx" ON "pets"("status", lower("name" COLLATE "C"), "id");

-- CreateTable: how many pets each status holds ('none' for pets without one), as a base plus the deltas below.
CREATE TABLE "pet_status_counts" (
    "status" TEXT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "pet_status_counts_pkey" PRIMARY KEY ("status")
);

INSERT INTO "pet_status_counts" ("status", "count")
SELECT "statuses"."status", (SELECT count(*) FROM "pets" WHERE coalesce("pets"."status"::text, 'none') = "statuses"."status")
FROM (VALUES ('available'), ('pending'), ('sold'), ('none')) AS "statuses"("status");

-- CreateTable: the changes to the counts not yet folded into the base. A trigger updating four counter rows would
-- make every writer changing pets of one status wait for the last one's commit (the row's lock is held until
-- then). Rows that are only ever inserted make no writer wait for another. A count is its base plus the sum of
-- its deltas, read in one statement (one snapshot: lib/pets/status-counts.ts), and housekeeping folds the
-- deltas into the base, a batch at a time, in one statement that deletes them and adds them to the base.
CREATE TABLE "pet_status_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "status" TEXT NOT NULL,
    "delta" BIGINT NOT NULL,

    CONSTRAINT "pet_status_count_deltas_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "pet_status_count_deltas_status_delta_idx" ON "pet_status_count_deltas"("status", "delta");

-- Statement-level triggers with transition tables: a statement changing pets appends at most one delta per
-- status, whatever the number of pets (a bulk insert of a million pets is one row), and none for a change that
-- moves no pet between statuses (a new name). The delta commits or rolls back with the change itself.
CREATE FUNCTION "pet_status_counts_follow"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "pet_status_count_deltas" ("status", "delta")
    SELECT coalesce("status"::text, ''none''), count(*) FROM "new_pets" GROUP BY 1\073
  ELSIF TG_OP = ''DELETE'' THEN
    INSERT INTO "pet_status_count_deltas" ("status", "delta")
    SELECT coalesce("status"::text, ''none''), -count(*) FROM "old_pets" GROUP BY 1\073
  ELSE
    INSERT INTO "pet_status_count_deltas" ("status", "delta")
    SELECT "status", sum("change") FROM (
      SELECT coalesce("status"::text, ''none'') AS "status", 1 AS "change" FROM "new_pets"
      UNION ALL SELECT coalesce("status"::text, ''none''), -1 FROM "old_pets") AS "each"
    GROUP BY 1 HAVING sum("change") <> 0\073
  END IF\073
  RETURN NULL\073
END\073';

CREATE TRIGGER "pet_status_counts_insert" AFTER INSERT ON "pets" REFERENCING NEW TABLE AS "new_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

CREATE TRIGGER "pet_status_counts_delete" AFTER DELETE ON "pets" REFERENCING OLD TABLE AS "old_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

CREATE TRIGGER "pet_status_counts_update" AFTER UPDATE ON "pets" REFERENCING OLD TABLE AS "old_pets" NEW TABLE AS "new_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

-- TRUNCATE fires no row or statement trigger of the above: it empties every count instead. It holds pets'
-- ACCESS EXCLUSIVE lock, so no writer of pets has a delta still uncommitted.
CREATE FUNCTION "pet_status_counts_truncate"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN DELETE FROM "pet_status_count_deltas"\073 UPDATE "pet_status_counts" SET "count" = 0\073 RETURN NULL\073 END\073';

CREATE TRIGGER "pet_status_counts_truncate" AFTER TRUNCATE ON "pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_truncate"();
