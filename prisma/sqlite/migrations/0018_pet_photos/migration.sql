-- CreateTable
CREATE TABLE "photos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pet_id" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "alt" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pet_deleted_at" DATETIME
);

-- CreateTable
CREATE TABLE "photo_images" (
    "photo_id" BIGINT NOT NULL,
    "size" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("photo_id", "size")
);

-- CreateIndex
CREATE INDEX "photos_pet_id_position_idx" ON "photos"("pet_id", "position");

-- CreateIndex
CREATE INDEX "photos_pet_deleted_at_idx" ON "photos"("pet_deleted_at");
