-- CreateEnum
CREATE TYPE "stock_movement_kind" AS ENUM ('opening', 'created', 'order', 'cancellation', 'adjustment', 'import');

-- CreateTable
CREATE TABLE "stock_movements" (
    "id" BIGSERIAL NOT NULL,
    "product_id" INTEGER NOT NULL,
    "kind" "stock_movement_kind" NOT NULL,
    "delta" INTEGER NOT NULL,
    "stock" INTEGER NOT NULL,
    "reason" TEXT,
    "order_id" INTEGER,
    "actor_type" TEXT,
    "actor_id" INTEGER,
    "actor_name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stock_movements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stock_movements_product_id_id_idx" ON "stock_movements"("product_id", "id" DESC);

-- CreateIndex
CREATE INDEX "products_created_at_id_idx" ON "products"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "products_stock_id_idx" ON "products"("stock", "id");

-- AddForeignKey
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data step (by hand): every product's stock so far as its opening movement, so that each
-- product's deltas add up to its stock from here on.
INSERT INTO "stock_movements" ("product_id", "kind", "delta", "stock", "created_at")
SELECT "id", 'opening', "stock", "stock", CURRENT_TIMESTAMP FROM "products";
