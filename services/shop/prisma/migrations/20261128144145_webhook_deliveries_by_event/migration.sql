-- DropIndex
DROP INDEX "webhook_deliveries_webhook_id_event_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_event_id_webhook_id_key" ON "webhook_deliveries"("event_id", "webhook_id");
