import type { DeliveryOutcome } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const WEBHOOK_FIELDS = {
  id: true,
  url: true,
  events: true,
  description: true,
  enabled: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type WebhookRow = Prisma.WebhookGetPayload<{ select: typeof WEBHOOK_FIELDS }>;

export const DELIVERY_FIELDS = {
  id: true,
  eventId: true,
  eventType: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
  log: {
    select: { at: true, statusCode: true, error: true, durationMs: true },
    orderBy: { id: 'asc' },
  },
} as const;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY_FIELDS }>;

export const insertWebhook = (
  db: Db,
  webhook: { url: string; events: string[]; description: string; secret: string },
): Promise<WebhookRow> => db.webhook.create({ data: webhook, select: WEBHOOK_FIELDS });

export const findWebhooks = (db: Db): Promise<WebhookRow[]> =>
  db.webhook.findMany({ select: WEBHOOK_FIELDS, orderBy: { id: 'asc' } });

export const findWebhook = (db: Db, id: number): Promise<WebhookRow | null> =>
  db.webhook.findUnique({ where: { id }, select: WEBHOOK_FIELDS });

/**
 * Changes the fields given; null when there is no such webhook. Enabling clears the reason it
 * was disabled and its failing streak, and makes its pending deliveries due at once.
 */
export const updateWebhook = (
  db: Db,
  id: number,
  change: { url?: string; events?: string[]; description?: string; enabled?: boolean },
): Promise<WebhookRow | null> =>
  db.$transaction(async (tx) => {
    const { count } = await tx.webhook.updateMany({
      where: { id },
      data: {
        ...change,
        ...(change.enabled === true ? { disabledReason: null, failingSince: null } : {}),
      },
    });
    if (count === 0) return null;
    if (change.enabled === true) {
      await tx.webhookDelivery.updateMany({
        where: { webhookId: id, status: { in: ['pending', 'failed'] } },
        data: { status: 'pending', nextAttemptAt: new Date() },
      });
    }
    return tx.webhook.findUnique({ where: { id }, select: WEBHOOK_FIELDS });
  });

export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const { count } = await db.webhook.deleteMany({ where: { id } });
  return count > 0;
}

/** The sealed secret now becomes the previous one, valid until `until`; false: no webhook. */
export async function replaceSecret(
  db: Db,
  id: number,
  sealed: string,
  until: Date,
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE webhooks
       SET previous_secret = secret, previous_secret_until = ${until},
           secret = ${sealed}, updated_at = now()
     WHERE id = ${id}`;
  return count > 0;
}

/** A delivery of an event of its own to one webhook (a ping). */
export const insertDelivery = (
  db: Db,
  delivery: { webhookId: number; eventId: string; eventType: string; payload: object },
): Promise<DeliveryRow> =>
  db.webhookDelivery.create({
    data: { ...delivery, nextAttemptAt: new Date() },
    select: DELIVERY_FIELDS,
  });

export async function findDeliveryPage(
  db: Db,
  webhookId: number,
  page: { outcome?: DeliveryOutcome; skip: number; take: number },
): Promise<{ deliveries: DeliveryRow[]; total: number }> {
  const where = { webhookId, ...(page.outcome ? { status: page.outcome } : {}) };
  const [deliveries, total] = await db.$transaction([
    db.webhookDelivery.findMany({
      where,
      select: DELIVERY_FIELDS,
      orderBy: { id: 'desc' },
      skip: page.skip,
      take: page.take,
    }),
    db.webhookDelivery.count({ where }),
  ]);
  return { deliveries, total };
}

/** Makes the delivery due now; null when the webhook has no such delivery. */
export async function makeDeliveryDue(
  db: Db,
  webhookId: number,
  deliveryId: number,
): Promise<DeliveryRow | null> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, webhookId },
    data: { status: 'pending', nextAttemptAt: new Date() },
  });
  if (count === 0) return null;
  return db.webhookDelivery.findUnique({ where: { id: deliveryId }, select: DELIVERY_FIELDS });
}
