-- DropIndex
DROP INDEX "webhook_deliveries_status_next_attempt_at_idx";

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "claimed_until" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_status_next_attempt_at_id_idx" ON "webhook_deliveries"("webhook_id", "status", "next_attempt_at", "id");
