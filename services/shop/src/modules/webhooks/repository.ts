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

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  /** The body exactly as sent and signed. */
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks not in `busy`, oldest due first and at
 * most `perWebhook` of each, for one attempt each: the claim moves `next_attempt_at` `leaseMs`
 * ahead (past the attempt's time-out), so no other worker takes them while they are sent, and a
 * worker that dies leaves them due again once the lease ends. FOR UPDATE SKIP LOCKED lets workers claim side by side
 * without waiting for each other; a row another worker claimed meanwhile is re-checked after its
 * lock and, no longer due, dropped, so each attempt is claimed by one worker.
 */
export const claimDueDeliveries = (
  db: Db,
  claim: { limit: number; perWebhook: number; leaseMs: number; busy: number[] },
): Promise<ClaimedDelivery[]> =>
  db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d
       SET attempts = d.attempts + 1,
           next_attempt_at = now() + ${claim.leaseMs} * interval '1 millisecond',
           updated_at = now()
      FROM webhooks w
     WHERE w.id = d.webhook_id
       AND d.id IN (
         SELECT due.id
           FROM webhook_deliveries due
          WHERE due.id IN (
                  -- At most perWebhook of each webhook's oldest due: a backlog of one receiver
                  -- cannot fill a claim.
                  SELECT ranked.id
                    FROM (SELECT d2.id,
                                 row_number() OVER (PARTITION BY d2.webhook_id
                                                    ORDER BY d2.next_attempt_at, d2.id) AS rank
                            FROM webhook_deliveries d2
                            JOIN webhooks hook ON hook.id = d2.webhook_id
                           WHERE d2.status = 'pending' AND d2.next_attempt_at <= now()
                             AND hook.enabled
                             AND NOT (d2.webhook_id = ANY(${claim.busy}::int[]))) ranked
                   WHERE ranked.rank <= ${claim.perWebhook})
            AND due.status = 'pending' AND due.next_attempt_at <= now()
          ORDER BY due.next_attempt_at, due.id
          LIMIT ${claim.limit}
            FOR UPDATE OF due SKIP LOCKED)
    RETURNING d.id, d.webhook_id AS "webhookId", d.event_id::text AS "eventId",
              d.payload::text AS payload, d.attempts, w.url, w.secret,
              w.previous_secret AS "previousSecret",
              w.previous_secret_until AS "previousSecretUntil"`;

/** What one attempt came to. */
export interface AttemptResult {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** A 2xx: the delivery is done. */
  delivered: boolean;
  /** When to try again (a failed attempt). */
  retryAt: Date | null;
}

/**
 * Logs the attempt, settles the delivery (delivered, or due again at `retryAt`) and the webhook's
 * failing streak (ended by a success, begun by the first failure); returns since when the webhook
 * has been failing (null: it is not, or it is gone). Nothing when the delivery was deleted.
 */
export async function recordAttempt(
  db: Db,
  deliveryId: number,
  result: AttemptResult,
): Promise<Date | null> {
  const [row] = await db.$queryRaw<Array<{ failingSince: Date | null }>>`
    WITH settled AS (
      UPDATE webhook_deliveries
         SET status = (CASE WHEN ${result.delivered} THEN 'delivered' ELSE status::text END)
                      ::delivery_status,
             next_attempt_at = coalesce(${result.retryAt}::timestamptz, next_attempt_at),
             updated_at = now()
       WHERE id = ${deliveryId}
      RETURNING id, webhook_id
    ), logged AS (
      INSERT INTO delivery_attempts (delivery_id, at, status_code, error, duration_ms)
      SELECT id, ${result.at}, ${result.statusCode}::int, ${result.error}::text,
             ${result.durationMs}::int
        FROM settled
    ), streak AS (
      UPDATE webhooks
         SET failing_since = CASE WHEN ${result.delivered} THEN NULL
                                  ELSE coalesce(failing_since, ${result.at}) END
       WHERE id = (SELECT webhook_id FROM settled)
      RETURNING failing_since
    )
    SELECT failing_since AS "failingSince" FROM streak`;
  return row?.failingSince ?? null;
}

/**
 * Disables a webhook that has been failing too long, with the reason, unless a success ended its
 * streak meanwhile; its pending deliveries become failed (re-enabling makes them due again).
 * True when this call disabled it.
 */
export const disableFailingWebhook = async (
  db: Db,
  webhookId: number,
  failingSince: Date,
  reason: string,
): Promise<boolean> => {
  const [disabled] = await db.$transaction([
    db.webhook.updateMany({
      where: { id: webhookId, enabled: true, failingSince: { lte: failingSince } },
      data: { enabled: false, disabledReason: reason },
    }),
    db.webhookDelivery.updateMany({
      where: { webhookId, status: 'pending', webhook: { enabled: false } },
      data: { status: 'failed' },
    }),
  ]);
  return disabled.count > 0;
};

/**
 * Seconds since the oldest event not yet delivered was committed (still unnumbered) or queued
 * (a pending delivery to an enabled subscription); 0 when there is none. For the metrics: each
 * part reads only the rows waiting (the pending ones through the (status, next_attempt_at)
 * index, the unnumbered ones through the sequence index), never the delivered history.
 */
export async function oldestUndeliveredAgeSeconds(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ age: number | null }>>`
    SELECT greatest(0, extract(epoch FROM now() - least(
             (SELECT min(d.created_at)
                FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
               WHERE d.status = 'pending' AND w.enabled),
             (SELECT min(occurred_at) FROM events WHERE sequence IS NULL))))::float8 AS age`;
  return row?.age ?? 0;
}

/** Disabled subscriptions: by the shop (failing too long: a reason), and by their owner. */
export async function countDisabledWebhooks(db: Db): Promise<{ shop: number; owner: number }> {
  const [row] = await db.$queryRaw<Array<{ shop: number; owner: number }>>`
    SELECT count(*) FILTER (WHERE disabled_reason IS NOT NULL)::int AS shop,
           count(*) FILTER (WHERE disabled_reason IS NULL)::int AS owner
      FROM webhooks
     WHERE NOT enabled`;
  return row ?? { shop: 0, owner: 0 };
}
