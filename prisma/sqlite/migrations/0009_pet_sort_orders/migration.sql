-- Written by hand (Prisma's schema cannot express an index's collation, nor triggers): listPets' sorted orders
-- and exact status counts.
--
-- Name order ignores the case of ASCII letters and compares everything else by code point: NOCASE folds A-Z
-- to a-z and compares the UTF-8 bytes, whose order is the code points' order. PostgreSQL's 0009 builds the
-- same order from lower(name COLLATE "C"), so both databases list names alike. Ties are broken by id. Newest
-- first walks the primary key, or (status, id), backwards: no index of its own.
CREATE INDEX "pets_name_id_idx" ON "pets"("name" COLLATE NOCASE, "id");

CREATE INDEX "pets_status_name_id_idx" ON "pets"("status", "name" COLLATE NOCASE, "id");

-- CreateTable: how many pets each status holds ('none' for pets without one), kept exact by the triggers below
-- inside the statement, and so the transaction, that changes a pet, so a count is one read of a 4-row table.
CREATE TABLE "pet_status_counts" (
    "status" TEXT NOT NULL PRIMARY KEY,
    "count" BIGINT NOT NULL
);

INSERT INTO "pet_status_counts" ("status", "count")
SELECT "statuses"."status", (SELECT count(*) FROM "pets" WHERE coalesce("pets"."status", 'none') = "statuses"."status")
FROM (SELECT 'available' AS "status" UNION ALL SELECT 'pending' UNION ALL SELECT 'sold' UNION ALL SELECT 'none') AS "statuses";

-- CreateTable: PostgreSQL's deltas of the counts (its 0009). SQLite runs one writer at a time, so the triggers
-- below update the counts themselves, and this table stays empty: it is here because the models are shared.
CREATE TABLE "pet_status_count_deltas" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "status" TEXT NOT NULL,
    "delta" BIGINT NOT NULL
);

CREATE INDEX "pet_status_count_deltas_status_delta_idx" ON "pet_status_count_deltas"("status", "delta");

CREATE TRIGGER "pet_status_counts_insert" AFTER INSERT ON "pets" BEGIN
  UPDATE "pet_status_counts" SET "count" = "count" + 1 WHERE "status" = coalesce(new."status", 'none');
END;

CREATE TRIGGER "pet_status_counts_delete" AFTER DELETE ON "pets" BEGIN
  UPDATE "pet_status_counts" SET "count" = "count" - 1 WHERE "status" = coalesce(old."status", 'none');
END;

CREATE TRIGGER "pet_status_counts_update" AFTER UPDATE OF "status" ON "pets"
WHEN old."status" IS NOT new."status" BEGIN
  UPDATE "pet_status_counts" SET "count" = "count" - 1 WHERE "status" = coalesce(old."status", 'none');
  UPDATE "pet_status_counts" SET "count" = "count" + 1 WHERE "status" = coalesce(new."status", 'none');
END;
