-- Orders (lib/orders): a sale of one pet, which holds it (pending) from placed until delivered, cancelled or
-- expired.
-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('placed', 'approved', 'delivered', 'cancelled', 'expired');

-- CreateTable
CREATE TABLE "orders" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT,
    "pet_name" TEXT NOT NULL,
    "placed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "approved_at" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "expired_at" TIMESTAMP(3),
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
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
