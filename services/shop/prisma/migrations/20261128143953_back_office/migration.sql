-- CreateEnum
CREATE TYPE "api_key_kind" AS ENUM ('publishable', 'secret');

-- CreateEnum
CREATE TYPE "staff_role" AS ENUM ('admin', 'staff', 'viewer');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "kind" "api_key_kind" NOT NULL DEFAULT 'secret',
ADD COLUMN     "last_used_at" TIMESTAMPTZ(3),
ADD COLUMN     "public_value" TEXT,
ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "order_status_history" ADD COLUMN     "actor_id" INTEGER,
ADD COLUMN     "actor_name" TEXT,
ADD COLUMN     "actor_type" TEXT,
ADD COLUMN     "note" TEXT;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "access_token_hash" TEXT,
ADD COLUMN     "customer_id" INTEGER;

-- CreateTable
CREATE TABLE "staff_accounts" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "staff_role" NOT NULL,
    "password_hash" TEXT,
    "token_version" INTEGER NOT NULL DEFAULT 0,
    "set_password_token_hash" TEXT,
    "set_password_expires_at" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "last_login_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "staff_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_notes" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" INTEGER,
    "actor_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" INTEGER,
    "actor_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_accounts_email_key" ON "staff_accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "staff_accounts_set_password_token_hash_key" ON "staff_accounts"("set_password_token_hash");

-- CreateIndex
CREATE INDEX "order_notes_order_id_created_at_idx" ON "order_notes"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_entries_resource_resource_id_id_idx" ON "audit_entries"("resource", "resource_id", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

-- CreateIndex
CREATE INDEX "orders_customer_id_created_at_id_idx" ON "orders"("customer_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_created_at_id_idx" ON "orders"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "orders_status_created_at_id_idx" ON "orders"("status", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Keys made before key kinds existed (SHOP_API_KEY's, the CLI's) keep opening everything: secret
-- keys with every scope (packages/contracts/src/shop/access.ts, API_KEY_SCOPES).
UPDATE "api_keys"
   SET "scopes" = ARRAY['orders:read', 'orders:write', 'catalogue:write', 'customers:read',
                        'reviews:moderate', 'stats:read', 'webhooks:manage', 'events:read',
                        'staff:manage', 'keys:manage'];
