-- Written by hand after npm run db:diff: the diff rebuilt the pets table to add a column, which would have
-- dropped the CHECK on status and restarted AUTOINCREMENT at the highest id left, so a deleted pet's id could
-- be given again. ADD COLUMN keeps both.
ALTER TABLE "pets" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "idempotency_records" ADD COLUMN "etag" TEXT;

-- Search by name: an FTS5 table with the trigram tokenizer over pets.name (case-insensitive substring
-- matches for three or more characters), holding only the index (the text stays in pets). The triggers
-- keep it in step inside the statement, and so the transaction, that changes a pet.
CREATE VIRTUAL TABLE "pets_search" USING fts5("name", content='pets', content_rowid='id', tokenize='trigram');

CREATE TRIGGER "pets_search_insert" AFTER INSERT ON "pets" BEGIN
  INSERT INTO "pets_search"("rowid", "name") VALUES (new."id", new."name");
END;

CREATE TRIGGER "pets_search_delete" AFTER DELETE ON "pets" BEGIN
  INSERT INTO "pets_search"("pets_search", "rowid", "name") VALUES ('delete', old."id", old."name");
END;

CREATE TRIGGER "pets_search_update" AFTER UPDATE OF "name" ON "pets" BEGIN
  INSERT INTO "pets_search"("pets_search", "rowid", "name") VALUES ('delete', old."id", old."name");
  INSERT INTO "pets_search"("rowid", "name") VALUES (new."id", new."name");
END;

INSERT INTO "pets_search"("pets_search") VALUES ('rebuild');
