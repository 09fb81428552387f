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

-- CreateTable: how many pets each status holds ('none' for pets without one), kept exact by the triggers below
-- in the transaction that changes the pets, so a count is one read of a 4-row table.
CREATE TABLE "pet_status_counts" (
    "status" TEXT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "pet_status_counts_pkey" PRIMARY KEY ("status")
);

INSERT INTO "pet_status_counts" ("status", "count")
SELECT "statuses"."status", (SELECT count(*) FROM "pets" WHERE coalesce("pets"."status"::text, 'none') = "statuses"."status")
FROM (VALUES ('available'), ('pending'), ('sold'), ('none')) AS "statuses"("status");

-- Statement-level triggers with transition tables: a bulk insert of a million pets adds to each count once, not a
-- million times. The rows a statement changes are locked in one order (by status) before they are written, so two
-- transactions moving pets between the same statuses in opposite directions wait for each other, never deadlock.
-- Concurrent changes of pets with the same status queue on that status's row until each commits.
CREATE FUNCTION "pet_status_counts_follow"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM 1 FROM "pet_status_counts" WHERE "status" IN (SELECT coalesce("status"::text, ''none'') FROM "new_pets")
    ORDER BY "status" FOR UPDATE\073
    UPDATE "pet_status_counts" AS "counts" SET "count" = "counts"."count" + "changes"."change"
    FROM (SELECT coalesce("status"::text, ''none'') AS "status", count(*) AS "change" FROM "new_pets" GROUP BY 1) AS "changes"
    WHERE "counts"."status" = "changes"."status"\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM 1 FROM "pet_status_counts" WHERE "status" IN (SELECT coalesce("status"::text, ''none'') FROM "old_pets")
    ORDER BY "status" FOR UPDATE\073
    UPDATE "pet_status_counts" AS "counts" SET "count" = "counts"."count" - "changes"."change"
    FROM (SELECT coalesce("status"::text, ''none'') AS "status", count(*) AS "change" FROM "old_pets" GROUP BY 1) AS "changes"
    WHERE "counts"."status" = "changes"."status"\073
  ELSE
    PERFORM 1 FROM "pet_status_counts" WHERE "status" IN (SELECT "status" FROM (SELECT "status", sum("change") AS "change" FROM (
      SELECT coalesce("status"::text, ''none'') AS "status", 1 AS "change" FROM "new_pets"
      UNION ALL SELECT coalesce("status"::text, ''none''), -1 FROM "old_pets") AS "each"
      GROUP BY 1 HAVING sum("change") <> 0) AS "moves")
    ORDER BY "status" FOR UPDATE\073
    UPDATE "pet_status_counts" AS "counts" SET "count" = "counts"."count" + "moves"."change"
    FROM (SELECT "status", sum("change") AS "change" FROM (
      SELECT coalesce("status"::text, ''none'') AS "status", 1 AS "change" FROM "new_pets"
      UNION ALL SELECT coalesce("status"::text, ''none''), -1 FROM "old_pets") AS "each"
      GROUP BY 1 HAVING sum("change") <> 0) AS "moves" WHERE "counts"."status" = "moves"."status"\073
  END IF\073
  RETURN NULL\073
END\073';

CREATE TRIGGER "pet_status_counts_insert" AFTER INSERT ON "pets" REFERENCING NEW TABLE AS "new_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

CREATE TRIGGER "pet_status_counts_delete" AFTER DELETE ON "pets" REFERENCING OLD TABLE AS "old_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

CREATE TRIGGER "pet_status_counts_update" AFTER UPDATE ON "pets" REFERENCING OLD TABLE AS "old_pets" NEW TABLE AS "new_pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_follow"();

-- TRUNCATE fires no row or statement trigger of the above: it empties every count instead.
CREATE FUNCTION "pet_status_counts_truncate"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN UPDATE "pet_status_counts" SET "count" = 0\073 RETURN NULL\073 END\073';

CREATE TRIGGER "pet_status_counts_truncate" AFTER TRUNCATE ON "pets"
FOR EACH STATEMENT EXECUTE FUNCTION "pet_status_counts_truncate"();
