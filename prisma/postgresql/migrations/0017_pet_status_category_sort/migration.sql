-- CreateIndex
CREATE INDEX "pets_status_category_id_id_idx" ON "pets"("status", "category_id", "id");
