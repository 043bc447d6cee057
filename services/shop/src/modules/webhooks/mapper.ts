import type { Delivery, Webhook } from '@dogshop/contracts/shop';
import type { DeliveryRow, WebhookRow } from './repository.js';

export const webhookToDto = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabledReason,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const deliveryToDto = (row: DeliveryRow): Delivery => ({
  id: row.id,
  event_id: row.eventId,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  created_at: row.createdAt.toISOString(),
  log: row.log.map((attempt) => ({
    at: attempt.at.toISOString(),
    status_code: attempt.statusCode,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  })),
});
