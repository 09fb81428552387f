-- Orders (lib/orders): a sale of one pet, which holds it (pending) from placed until delivered, cancelled or
-- expired.
-- CreateTable
CREATE TABLE "orders" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pet_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT,
    "pet_name" TEXT NOT NULL,
    "placed_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    "approved_at" DATETIME,
    "delivered_at" DATETIME,
    "cancelled_at" DATETIME,
    "expired_at" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 1
);

-- CreateIndex
CREATE INDEX "orders_status_id_idx" ON "orders"("status", "id");

-- CreateIndex
CREATE INDEX "orders_pet_id_id_idx" ON "orders"("pet_id", "id");

-- CreateIndex
CREATE INDEX "orders_status_expires_at_idx" ON "orders"("status", "expires_at");

-- At most one open (placed or approved) order per pet, whatever the races: a pet is never sold twice. Prisma's
-- schema cannot express a partial index.
CREATE UNIQUE INDEX "orders_one_open_per_pet" ON "orders"("pet_id") WHERE "status" IN ('placed', 'approved');
