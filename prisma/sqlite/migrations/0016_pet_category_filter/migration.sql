-- DropIndex
DROP INDEX "pets_category_id_idx";

-- CreateIndex
CREATE INDEX "pets_category_id_id_idx" ON "pets"("category_id", "id");

-- listPets by category in name order: one walk of this index per category, from the cursor on (lib/pets/store.ts)
CREATE INDEX "pets_category_id_name_id_idx" ON "pets"("category_id", "name" COLLATE NOCASE, "id");
