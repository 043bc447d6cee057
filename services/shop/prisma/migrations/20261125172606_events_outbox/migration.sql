-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "position" BIGSERIAL NOT NULL,
    "sequence" BIGINT,
    "type" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_position_key" ON "events"("position");

-- CreateIndex
CREATE UNIQUE INDEX "events_sequence_key" ON "events"("sequence");

-- CreateIndex
CREATE INDEX "events_occurred_at_idx" ON "events"("occurred_at");
