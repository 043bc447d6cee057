-- Integrity rules that Prisma's schema language cannot express. Created empty by
-- `pnpm migrate:new integrity_checks --empty` (Prisma's create-only workflow), then filled in.

-- Stock can never go below zero, whatever the application does.
ALTER TABLE "products" ADD CONSTRAINT "products_stock_nonnegative" CHECK ("stock" >= 0);
ALTER TABLE "products" ADD CONSTRAINT "products_price_nonnegative" CHECK ("price" >= 0);
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_rating_range" CHECK ("rating" BETWEEN 1 AND 5);

-- At most one default address per customer.
CREATE UNIQUE INDEX "addresses_one_default_per_customer" ON "addresses" ("customer_id") WHERE "is_default";
