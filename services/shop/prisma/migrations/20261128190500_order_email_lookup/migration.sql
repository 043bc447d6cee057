-- By hand: the back office's `q` with a whole e-mail address finds that address's orders, case
-- ignored, through this index (order-admin/repository.ts, WHOLE_EMAIL). Prisma's schema cannot
-- state an expression index; migrate:new leaves it alone (checked when it was added). Its
-- statistics come with the ANALYZE of `*_order_status_counts`.
CREATE INDEX "orders_customer_email_lower_idx" ON "orders" (lower("customer_email"));

