-- CreateTable
CREATE TABLE "photos" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "alt" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pet_deleted_at" TIMESTAMP(3),

    CONSTRAINT "photos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "photo_images" (
    "photo_id" BIGINT NOT NULL,
    "size" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "photo_images_pkey" PRIMARY KEY ("photo_id","size")
);

-- CreateIndex
CREATE INDEX "photos_pet_id_position_idx" ON "photos"("pet_id", "position");

-- CreateIndex
CREATE INDEX "photos_pet_deleted_at_idx" ON "photos"("pet_deleted_at");
