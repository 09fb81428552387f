-- CSV imports of pets (lib/pets/import.ts): one row per imported file, keyed by its id and unique by its SHA-256,
-- and one row per line of it that has its pet, written in the pet's own transaction, so that re-applying the
-- file (a retry, a double submit, a resume after a crash) creates only the lines not yet done.
-- CreateTable
CREATE TABLE "pet_imports" (
    "id" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "staff_id" INTEGER NOT NULL,
    "staff_email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "pet_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pet_import_rows" (
    "import_id" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "pet_id" BIGINT NOT NULL,

    CONSTRAINT "pet_import_rows_pkey" PRIMARY KEY ("import_id","line")
);

-- CreateIndex
CREATE UNIQUE INDEX "pet_imports_sha256_key" ON "pet_imports"("sha256");

-- AddForeignKey
ALTER TABLE "pet_import_rows" ADD CONSTRAINT "pet_import_rows_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "pet_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
