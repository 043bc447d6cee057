import type { DeliveryOutcome } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import { PLAN_PER_CALL } from '../../db/prepared-statements.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { Prisma } from '../../generated/prisma/client.js';
import { envelopeSql } from '../events/repository.js';

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

export const findWebhook = (db: Tx, id: number): Promise<WebhookRow | null> =>
  db.webhook.findUnique({ where: { id }, select: WEBHOOK_FIELDS });

/**
 * Changes the fields given; false when there is no such webhook. Enabling clears the reason it
 * was disabled and its failing streak (the service makes its pending deliveries due with it).
 */
export async function updateWebhookFields(
  tx: Tx,
  id: number,
  change: { url?: string; events?: string[]; description?: string; enabled?: boolean },
): Promise<boolean> {
  const { count } = await tx.webhook.updateMany({
    where: { id },
    data: {
      ...change,
      ...(change.enabled === true ? { disabledReason: null, failingSince: null } : {}),
    },
  });
  return count > 0;
}

/**
 * Makes a webhook's pending and failed deliveries due at once (it was enabled again); one with an
 * attempt in flight stays claimed (no second worker sends it meanwhile) and is due at once when
 * that attempt fails (see recordAttempts).
 */
export async function makeUndeliveredDue(tx: Tx, webhookId: number): Promise<void> {
  await tx.webhookDelivery.updateMany({
    where: { webhookId, status: { in: ['pending', 'failed'] } },
    data: { status: 'pending', nextAttemptAt: new Date() },
  });
}

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

/**
 * A delivery of an event of its own to one webhook (a ping: not in the feed), due now, its body
 * the envelope every delivery has (envelopeSql). One statement; a new delivery has no attempts.
 */
export async function insertPingDelivery(
  db: Db,
  ping: { webhookId: number; eventId: string; eventType: string; data: object },
): Promise<DeliveryRow> {
  const [row] = await db.$queryRaw<Array<Omit<DeliveryRow, 'log'>>>`
    INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload, next_attempt_at,
                                    created_at, updated_at)
    SELECT ${ping.webhookId}::int, ${ping.eventId}::uuid, ${ping.eventType}::text,
           ${envelopeSql(Prisma.sql`${ping.eventType}::text`, Prisma.sql`clock.now`, Prisma.sql`${JSON.stringify(ping.data)}::jsonb`)},
           clock.now, clock.now, clock.now
      FROM (SELECT date_trunc('milliseconds', now()) AS now) clock
    RETURNING id, event_id::text AS "eventId", event_type AS "eventType", status::text AS status,
              attempts, next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"`;
  if (!row) throw new Error('the ping delivery was not inserted');
  return { ...row, log: [] };
}

/** A page of a webhook's deliveries, newest first (with `outcome`: those with that status). */
export const findDeliveries = (
  tx: Tx,
  webhookId: number,
  page: { outcome?: DeliveryOutcome; skip: number; take: number },
): Promise<DeliveryRow[]> =>
  tx.webhookDelivery.findMany({
    where: { webhookId, ...(page.outcome ? { status: page.outcome } : {}) },
    select: DELIVERY_FIELDS,
    orderBy: { id: 'desc' },
    skip: page.skip,
    take: page.take,
  });

/** How many deliveries a webhook has (with `outcome`: with that status). */
export const countDeliveries = (
  tx: Tx,
  webhookId: number,
  outcome?: DeliveryOutcome,
): Promise<number> =>
  tx.webhookDelivery.count({ where: { webhookId, ...(outcome ? { status: outcome } : {}) } });

/**
 * Makes the delivery due now; null when the webhook has no such delivery. One with an attempt in
 * flight stays claimed, and is due at once if that attempt fails (see recordAttempt).
 */
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
  /** This attempt's number: the claim's token (recordAttempt checks it). */
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** What a claim took, and how many were due of each webhook it looked at (at most its room). */
export interface Claim<D = ClaimedDelivery> {
  deliveries: D[];
  /**
   * Per webhook with due deliveries: how many of its oldest due the claim considered (at most its
   * room). Equal to its room: more of it may be due.
   */
  due: Map<number, number>;
}

/** What to claim: see claimDueDeliveries. */
export interface ClaimRequest {
  limit: number;
  /** The most of one webhook a claim takes. */
  perWebhook: number;
  /** The room of a webhook not in `room` (default `perWebhook`). */
  defaultRoom?: number;
  leaseMs: number;
  /** Room per webhook where it is not `defaultRoom` (0: none of it; at most `perWebhook`). */
  room: ReadonlyMap<number, number>;
}

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

/** One attempt to record: the claimed delivery (its id and the claim's attempt number). */
export interface AttemptRecord {
  delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>;
  result: AttemptResult;
}

/** What recording one attempt came to. */
export interface Recorded {
  /** False: its claim had ended and the delivery was claimed again (or it was deleted). */
  recorded: boolean;
  /** Since when its webhook has been failing (null: it is not, it is gone, or not recorded). */
  failingSince: Date | null;
  /** Recorded, not delivered, and due again at once (a retry asked for it meanwhile). */
  dueNow: boolean;
}

/**
 * Records attempts: see recordAttempts. Reads only the rows of the attempts, through the key.
 */
const recordSql = (attempts: AttemptRecord[]) => {
  const column = <T>(pick: (a: AttemptRecord) => T) => attempts.map(pick);
  return Prisma.sql`
    input AS (
      SELECT *
        FROM unnest(${column((a) => a.delivery.id)}::int[],
                    ${column((a) => a.delivery.attempts)}::int[],
                    ${column((a) => a.result.delivered)}::boolean[],
                    ${column((a) => a.result.at)}::timestamptz[],
                    ${column((a) => a.result.statusCode)}::int[],
                    ${column((a) => a.result.error)}::text[],
                    ${column((a) => a.result.durationMs)}::int[],
                    ${column((a) => a.result.retryAt)}::timestamptz[])
             WITH ORDINALITY
             AS i(id, attempts, delivered, at, status_code, error, duration_ms, retry_at, ord)
    ), settled AS (
      UPDATE webhook_deliveries d
         SET status = (CASE WHEN i.delivered THEN 'delivered' ELSE d.status::text END)
                      ::delivery_status,
             -- Made due during the attempt (before the claim's end): due then.
             next_attempt_at = CASE WHEN i.delivered OR d.next_attempt_at < d.claimed_until
                                    THEN d.next_attempt_at
                                    ELSE coalesce(i.retry_at, d.next_attempt_at)
                               END,
             claimed_until = NULL,
             updated_at = now()
        FROM input i
       WHERE d.id = i.id AND d.attempts = i.attempts
      RETURNING i.ord, d.id, d.webhook_id, i.delivered, i.at, i.status_code, i.error,
                i.duration_ms,
                d.status = 'pending' AND d.next_attempt_at <= now() AS due_now
    ), logged AS (
      INSERT INTO delivery_attempts (delivery_id, at, status_code, error, duration_ms)
      SELECT id, at, status_code, error, duration_ms FROM settled ORDER BY at, id
    ), outcomes AS (
      -- Per webhook: whether an attempt succeeded, and when the failures after the last success
      -- (all of them, without a success) began.
      SELECT s.webhook_id, bool_or(s.delivered) AS succeeded,
             min(s.at) FILTER (WHERE NOT s.delivered
                                 AND (last.success IS NULL OR s.at > last.success)) AS failing
        FROM settled s
        JOIN (SELECT webhook_id, max(at) FILTER (WHERE delivered) AS success
                FROM settled GROUP BY webhook_id) last USING (webhook_id)
       GROUP BY s.webhook_id
    ), streak AS (
      UPDATE webhooks w
         SET failing_since = CASE WHEN o.succeeded THEN o.failing
                                  ELSE coalesce(w.failing_since, o.failing) END
        FROM outcomes o
       WHERE w.id = o.webhook_id
         AND w.failing_since IS DISTINCT FROM (CASE WHEN o.succeeded THEN o.failing
                                                    ELSE coalesce(w.failing_since, o.failing) END)
      RETURNING w.id, w.failing_since
    )`;
};

const recordedJson = Prisma.sql`(
    SELECT json_agg(json_build_object(
             'recorded', s.id IS NOT NULL,
             'dueNow', coalesce(s.due_now, false),
             'failingSince', CASE WHEN s.id IS NULL THEN NULL
                                  WHEN st.id IS NOT NULL THEN st.failing_since
                                  ELSE w.failing_since END)
           ORDER BY i.ord)
      FROM input i
      LEFT JOIN settled s ON s.ord = i.ord
      LEFT JOIN webhooks w ON w.id = s.webhook_id
      LEFT JOIN streak st ON st.id = s.webhook_id)`;

/**
 * Claims due deliveries: see claimDueDeliveries. `recording`: deliveries this statement records,
 * never claimed by it (a row is changed once per statement).
 */
const claimSql = (claim: ClaimRequest, recording: number[]) => Prisma.sql`
    room AS (
      SELECT w.id, least(coalesce(r.room, ${claim.defaultRoom ?? claim.perWebhook}::int),
                         ${claim.perWebhook}::int) AS room
        FROM webhooks w
        LEFT JOIN unnest(${[...claim.room.keys()]}::int[], ${[...claim.room.values()]}::int[])
               AS r(id, room) ON r.id = w.id
       WHERE w.enabled
    ), locked AS (
      -- Each webhook's oldest due, locked; rows another worker is claiming are skipped (the
      -- next ones taken instead), and a row claimed meanwhile is re-checked and dropped. At
      -- most perWebhook (a constant in the text: PostgreSQL then plans the statement once per
      -- connection, not per call), of which the webhook's room is taken below.
      SELECT c.id, c.webhook_id, c.next_attempt_at, room.room
        FROM room
       CROSS JOIN LATERAL (
             SELECT d.id, d.webhook_id, d.next_attempt_at
               FROM webhook_deliveries d
              WHERE d.webhook_id = room.id AND d.status = 'pending'
                AND d.next_attempt_at <= now()
                AND (d.claimed_until IS NULL OR d.claimed_until <= now())
                AND d.id <> ALL(${recording}::int[])
              ORDER BY d.next_attempt_at, d.id
              LIMIT ${Prisma.raw(String(Math.trunc(claim.perWebhook)))}
                FOR UPDATE SKIP LOCKED) c
       WHERE room.room > 0
    ), candidates AS (
      SELECT id, webhook_id, next_attempt_at
        FROM (SELECT locked.*,
                     row_number() OVER (PARTITION BY webhook_id
                                        ORDER BY next_attempt_at, id) AS rank
                FROM locked) ranked
       WHERE rank <= room
    ), claimed AS (
      UPDATE webhook_deliveries d
         SET attempts = d.attempts + 1,
             claimed_until = now() + ${claim.leaseMs} * interval '1 millisecond',
             next_attempt_at = now() + ${claim.leaseMs} * interval '1 millisecond',
             updated_at = now()
        FROM webhooks w
       WHERE w.id = d.webhook_id
         -- An array, so the rows are found by their key, whatever the planner guesses.
         AND d.id = ANY(ARRAY(SELECT id FROM candidates
                               ORDER BY next_attempt_at, id
                               LIMIT ${claim.limit}))
      RETURNING d.id, d.webhook_id, d.event_id, d.payload, d.attempts, w.url, w.secret,
                w.previous_secret, w.previous_secret_until
    )`;

const claimedJson = Prisma.sql`(
    SELECT json_agg(json_build_object(
             'id', id, 'webhookId', webhook_id, 'eventId', event_id, 'payload', payload::text,
             'attempts', attempts, 'url', url, 'secret', secret,
             'previousSecret', previous_secret, 'previousSecretUntil', previous_secret_until)
           ORDER BY id)
      FROM claimed)`;

const dueJson = Prisma.sql`(
    SELECT json_object_agg(webhook_id, n)
      FROM (SELECT webhook_id, count(*) AS n FROM candidates GROUP BY webhook_id) per_webhook)`;

/** A claim given back unsent: its delivery and the claim's attempt number. */
export type ReleasedClaim = Pick<ClaimedDelivery, 'id' | 'attempts'>;

/**
 * Gives claims back that were never sent (claimed ahead, and waiting too long for a slot): the
 * attempt they counted is uncounted and the delivery is due again at once, unless its claim has
 * already ended and another worker claimed it (its `attempts` moved on).
 */
const releaseSql = (released: ReleasedClaim[]) => Prisma.sql`
    released AS (
      UPDATE webhook_deliveries d
         SET attempts = d.attempts - 1, claimed_until = NULL, updated_at = now()
        FROM unnest(${released.map((r) => r.id)}::int[], ${released.map((r) => r.attempts)}::int[])
             AS r(id, attempts)
       WHERE d.id = r.id AND d.attempts = r.attempts AND d.status = 'pending'
      RETURNING d.id
    )`;

/**
 * The worker's statement runs on the app's `pg` pool (`app.reads`, db/sql-reads.ts: the same text
 * and parameters, named as Prisma names them) or through Prisma's client (tests compare the two).
 * In the worker's drain profile it took 0.108 ms of busy time per delivered event through Prisma
 * (its client and adapter half of that) and 0.042 ms through `pg` (bench/README.md, W-cpu).
 */
const rowsOf = <T>(db: Db | SqlReads, query: Prisma.Sql): Promise<T[]> =>
  '$queryRaw' in db ? db.$queryRaw<T[]>(query) : db.rows<T>(query);

/**
 * One statement of the worker: records the attempts that ended (recordAttempts), gives back
 * claims it did not send (`released`), and claims due deliveries (claimDueDeliveries, unless
 * `claim` is null), so that a worker with a backlog needs one round trip per turn, not two. A
 * released delivery is claimable from the next statement on (this one reads the rows as they
 * were before it). A single statement, so it commits on its own on either runner.
 */
export async function recordAndClaim(
  db: Db | SqlReads,
  records: AttemptRecord[],
  claim: ClaimRequest | null,
  released: ReleasedClaim[] = [],
): Promise<{ recorded: Recorded[]; claim: Claim | null }> {
  if (records.length === 0 && !claim && released.length === 0) {
    return { recorded: [], claim: null };
  }
  const ctes: Prisma.Sql[] = [];
  if (records.length > 0) ctes.push(recordSql(records));
  if (released.length > 0) ctes.push(releaseSql(released));
  if (claim)
    ctes.push(
      claimSql(
        claim,
        records.map((r) => r.delivery.id),
      ),
    );
  const none = Prisma.sql`NULL::json`;
  const [row] = await rowsOf<{
    recorded: Array<{ recorded: boolean; dueNow: boolean; failingSince: string | null }> | null;
    claimed: Array<
      Omit<ClaimedDelivery, 'previousSecretUntil'> & {
        previousSecretUntil: string | null;
      }
    > | null;
    due: Record<string, number> | null;
  }>(
    db,
    Prisma.sql`
    WITH ${Prisma.join(ctes, ', ')}
    SELECT ${records.length > 0 ? recordedJson : none} AS recorded,
           ${claim ? claimedJson : none} AS claimed,
           ${claim ? dueJson : none} AS due`,
  );
  const recorded = (row?.recorded ?? []).map((r) => ({
    recorded: r.recorded,
    dueNow: r.dueNow,
    failingSince: r.failingSince === null ? null : new Date(r.failingSince),
  }));
  if (!claim) return { recorded, claim: null };
  return {
    recorded,
    claim: {
      deliveries: (row?.claimed ?? []).map((d) => ({
        ...d,
        previousSecretUntil:
          d.previousSecretUntil === null ? null : new Date(d.previousSecretUntil),
      })),
      due: new Map(Object.entries(row?.due ?? {}).map(([id, n]) => [Number(id), n])),
    },
  };
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks, oldest due first, at most `room` of
 * each webhook (`perWebhook` unless `room` says otherwise; 0: none), for one attempt each: the
 * claim counts the attempt (its number is the claim's token) and sets `claimed_until` and
 * `next_attempt_at` `leaseMs` ahead (past the attempt's time-out), so no other worker takes them
 * while they are sent, and a worker that dies leaves them due again once the lease ends.
 *
 * Each webhook's few oldest due rows are read through the (webhook_id, status, next_attempt_at,
 * id) index, so a claim reads about `room` rows per enabled webhook, whatever the backlog. FOR
 * UPDATE SKIP LOCKED lets workers claim side by side without waiting for each other (one takes
 * the rows after those another is claiming); a row another worker claimed meanwhile is
 * re-checked after its lock and, no longer due, dropped, so each attempt is claimed by one
 * worker.
 */
export async function claimDueDeliveries(db: Db | SqlReads, claim: ClaimRequest): Promise<Claim> {
  return (await recordAndClaim(db, [], claim)).claim!;
}

/**
 * Records attempts in one statement, each as if alone: logs it, settles its delivery and ends the
 * claim: delivered, or due again at `retryAt` (or at once, when a retry or re-enabling asked for
 * it while the attempt was in flight). Only while the delivery is still claimed for that attempt
 * (its `attempts` is the claim's number): once a claim has run out and another worker claimed
 * the delivery again, or it was deleted, nothing of the attempt is written, so a late worker
 * neither moves the due time under the one sending now nor counts towards the failing streak.
 *
 * The webhooks' failing streaks, by their recorded attempts in the order they began: ended by a
 * success (when no failure began after it), begun by the first failure (after the last success,
 * if any); a webhook's row is written only when its streak changes. Results in `attempts`' order.
 */
export async function recordAttempts(
  db: Db | SqlReads,
  attempts: AttemptRecord[],
): Promise<Recorded[]> {
  return (await recordAndClaim(db, attempts, null)).recorded;
}

/**
 * Disables a webhook that has been failing since `failingSince` or earlier, with the reason,
 * unless a success ended its streak meanwhile; true when this call disabled it.
 */
export async function disableIfFailing(
  tx: Tx,
  webhookId: number,
  failingSince: Date,
  reason: string,
): Promise<boolean> {
  const { count } = await tx.webhook.updateMany({
    where: { id: webhookId, enabled: true, failingSince: { lte: failingSince } },
    data: { enabled: false, disabledReason: reason },
  });
  return count > 0;
}

/** A disabled webhook's pending deliveries become failed (re-enabling makes them due again). */
export async function failPendingOfDisabled(tx: Tx, webhookId: number): Promise<void> {
  await tx.webhookDelivery.updateMany({
    where: { webhookId, status: 'pending', webhook: { enabled: false } },
    data: { status: 'failed' },
  });
}

/**
 * Deletes the deliveries queued before `before` whose event is gone (their attempts go with them):
 * pings, which are no event of the feed, and any left by events deleted without them. Reads the
 * oldest rows only: by the key (the order they were queued) up to the first queued since
 * `before`, which the second statement, planned for that value, does not pass.
 */
export async function deleteDeliveriesWithoutEvent(tx: Tx, before: Date): Promise<number> {
  const [first] = await tx.$queryRaw<Array<{ id: number | null }>>`
    SELECT min(id) AS id FROM webhook_deliveries WHERE created_at >= ${before}`;
  const upTo = first?.id ?? 2_147_483_647;
  return tx.$executeRaw`
    DELETE FROM webhook_deliveries d
     WHERE d.id < ${upTo} AND d.created_at < ${before}
       AND NOT EXISTS (SELECT FROM events e WHERE e.id = d.event_id) ${PLAN_PER_CALL}`;
}

/**
 * Seconds since the oldest event not yet delivered was committed (still unnumbered) or queued
 * (a pending delivery to an enabled subscription); 0 when there is none. For the metrics: each
 * part reads only the rows waiting (each enabled webhook's pending ones through the
 * (webhook_id, status, …) index, the unnumbered ones through the sequence index), never the
 * delivered history.
 */
export async function oldestUndeliveredAgeSeconds(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ age: number | null }>>`
    SELECT greatest(0, extract(epoch FROM now() - least(
             (SELECT min(p.created_at)
                FROM webhooks w
               CROSS JOIN LATERAL (SELECT min(d.created_at) AS created_at
                                     FROM webhook_deliveries d
                                    WHERE d.webhook_id = w.id AND d.status = 'pending') p
               WHERE w.enabled),
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
