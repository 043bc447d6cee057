-- CreateTable
CREATE TABLE "category_product_counts" (
    "category_id" INTEGER NOT NULL,
    "active_products" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "category_product_counts_pkey" PRIMARY KEY ("category_id")
);

-- CreateTable
CREATE TABLE "category_product_count_changes" (
    "category_id" INTEGER NOT NULL,
    "delta" INTEGER NOT NULL
);
