-- Written by npm run db:diff, then reviewed: category names (issue 12). The table starts empty on every database:
-- a pet's categoryId stays any int64 (the /v1 contract), the app shows an id without a row as "Unnamed (<id>)",
-- and admins name ids on the Categories page (the demo seed names its own six). Ids are always given, never
-- generated, so the key has no sequence.
CREATE TABLE "categories" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- One name per category, whatever its case or surrounding spaces: name_key is the folded name (lib/categories).
CREATE UNIQUE INDEX "categories_name_key_key" ON "categories"("name_key");

-- How many pets each category holds, and the largest category id in use, read from an index, not the table.
CREATE INDEX "pets_category_id_idx" ON "pets"("category_id");
