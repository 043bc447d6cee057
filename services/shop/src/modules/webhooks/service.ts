import { randomUUID } from 'node:crypto';
import type {
  CreateWebhookBody,
  CreatedWebhook,
  Delivery,
  DeliveryListQuery,
  DeliveryPage,
  RotatedSecret,
  UpdateWebhookBody,
  Webhook,
  WebhookPing,
} from '@dogshop/contracts/shop';
import { notFound } from '@dogshop/service-kit';
import type { WebhookConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { retryingConflicts } from '../../db/prisma-errors.js';
import { deliveryToDto, webhookToDto } from './mapper.js';
import {
  countDeliveries,
  deleteWebhook,
  disableIfFailing,
  failPendingOfDisabled,
  findDeliveries,
  findWebhook,
  findWebhooks,
  insertPingDelivery,
  insertWebhook,
  makeDeliveryDue,
  makeUndeliveredDue,
  replaceSecret,
  updateWebhookFields,
} from './repository.js';
import { newSecret, sealSecret } from './secrets.js';
import { checkTarget } from './targets.js';

/** How long deliveries carry the previous secret's signature after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

const webhookNotFound = (id: number) => notFound(`Webhook ${id} not found`);

/** A subscription to a checked target; its secret is returned here and stored only sealed. */
export async function createWebhook(
  db: Db,
  config: WebhookConfig,
  body: CreateWebhookBody,
): Promise<CreatedWebhook> {
  await checkTarget(body.url, config);
  const secret = newSecret();
  const row = await insertWebhook(db, {
    url: body.url,
    events: body.events,
    description: body.description ?? '',
    secret: sealSecret(config.secretKey, secret),
  });
  return { ...webhookToDto(row), secret };
}

export const listWebhooks = async (db: Db): Promise<Webhook[]> =>
  (await findWebhooks(db)).map(webhookToDto);

export async function getWebhook(db: Db, id: number): Promise<Webhook> {
  const row = await findWebhook(db, id);
  if (!row) throw webhookNotFound(id);
  return webhookToDto(row);
}

export async function changeWebhook(
  db: Db,
  config: WebhookConfig,
  id: number,
  body: UpdateWebhookBody,
): Promise<Webhook> {
  if (body.url !== undefined) await checkTarget(body.url, config);
  // Enabling makes its pending deliveries due with the change, in one transaction. It locks the
  // webhook, then its deliveries; the worker, recording attempts, locks deliveries, then the
  // webhook (its failing streak): PostgreSQL breaks such a cycle by rolling one back, and this
  // one is run again.
  const row = await retryingConflicts(() =>
    db.$transaction(async (tx) => {
      if (!(await updateWebhookFields(tx, id, body))) return null;
      if (body.enabled === true) await makeUndeliveredDue(tx, id);
      return findWebhook(tx, id);
    }),
  );
  if (!row) throw webhookNotFound(id);
  return webhookToDto(row);
}

export async function removeWebhook(db: Db, id: number): Promise<string> {
  // The delete locks the webhook, then (cascading) its deliveries: the worker's opposite order,
  // as in changeWebhook, so a delete PostgreSQL rolled back to break the cycle is run again.
  if (!(await retryingConflicts(() => deleteWebhook(db, id)))) throw webhookNotFound(id);
  return `Webhook ${id} deleted`;
}

/** A new secret; the previous one keeps signing (beside it) for ROTATION_OVERLAP_MS. */
export async function rotateSecret(
  db: Db,
  config: WebhookConfig,
  id: number,
): Promise<RotatedSecret> {
  const secret = newSecret();
  const until = new Date(Date.now() + ROTATION_OVERLAP_MS);
  if (!(await replaceSecret(db, id, sealSecret(config.secretKey, secret), until))) {
    throw webhookNotFound(id);
  }
  return { secret, previous_secret_expires_at: until.toISOString() };
}

/** Queues a `webhook.ping` for this webhook alone (not an event of the shop: not in the feed). */
export async function pingWebhook(db: Db, id: number): Promise<Delivery> {
  if (!(await findWebhook(db, id))) throw webhookNotFound(id);
  const row = await insertPingDelivery(db, {
    webhookId: id,
    eventId: randomUUID(),
    eventType: 'webhook.ping',
    data: { webhook_id: id } satisfies WebhookPing,
  });
  return deliveryToDto(row);
}

export async function listDeliveries(
  db: Db,
  id: number,
  query: DeliveryListQuery,
): Promise<DeliveryPage> {
  if (!(await findWebhook(db, id))) throw webhookNotFound(id);
  const { page, limit } = query;
  // The page and its total in one transaction (on one connection, one after the other).
  const [deliveries, total] = await db.$transaction(async (tx) => [
    await findDeliveries(tx, id, {
      ...(query.outcome ? { outcome: query.outcome } : {}),
      skip: (page - 1) * limit,
      take: limit,
    }),
    await countDeliveries(tx, id, query.outcome),
  ]);
  return {
    deliveries: deliveries.map(deliveryToDto),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

export async function retryDelivery(db: Db, id: number, deliveryId: number): Promise<Delivery> {
  const row = await makeDeliveryDue(db, id, deliveryId);
  if (!row) throw notFound(`Delivery ${deliveryId} of webhook ${id} not found`);
  return deliveryToDto(row);
}

/**
 * Disables a webhook that has been failing too long (since `failingSince`), with the reason,
 * unless a success ended its streak meanwhile; its pending deliveries become failed (re-enabling
 * makes them due again). True when this call disabled it. It locks the webhook, then its
 * deliveries, as changeWebhook does: run again when PostgreSQL rolls it back to break a cycle with
 * attempts being recorded meanwhile.
 */
export const disableFailingWebhook = (
  db: Db,
  webhookId: number,
  failingSince: Date,
  reason: string,
): Promise<boolean> =>
  retryingConflicts(() =>
    db.$transaction(async (tx) => {
      const disabled = await disableIfFailing(tx, webhookId, failingSince, reason);
      await failPendingOfDisabled(tx, webhookId);
      return disabled;
    }),
  );
