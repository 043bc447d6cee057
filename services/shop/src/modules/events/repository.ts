import type { Db, Tx } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { NewEvent } from './builders.js';

export type { NewEvent } from './builders.js';

/** A numbered event as stored, its envelope made by envelopeSql. */
export interface EventRow {
  id: string;
  sequence: bigint;
  envelope: { type: string; timestamp: string; data: unknown };
}

declare const eventWriter: unique symbol;
/**
 * The client of a transaction that may write events: only `writeEvents` (service.ts) makes one,
 * so every transaction that writes events announces them once it commits.
 */
export type EventTx = Tx & { readonly [eventWriter]: true };

/** The transactions that wrote events (writeEvents announces those once committed). */
const wroteEvents = new WeakSet<Tx>();
export const hasWrittenEvents = (tx: Tx): boolean => wroteEvents.has(tx);

/**
 * Writes events (made by builders.ts) in the caller's transaction, in the order given (their
 * `position`), unnumbered: they are visible, and numbered, only once that transaction commits.
 * A null (an update that changed nothing) is skipped.
 */
export async function insertEvents(
  tx: EventTx,
  events: ReadonlyArray<NewEvent | null>,
): Promise<void> {
  const written = events.filter((e): e is NewEvent => e !== null);
  if (written.length === 0) return;
  wroteEvents.add(tx);
  await tx.event.createMany({
    data: written.map((e) => ({
      type: e.type,
      occurredAt: e.occurredAt,
      data: e.data,
    })),
  });
}

/**
 * insertEvents as a part (a CTE's body) of a statement that writes a change and its events in
 * one round trip (placing an order): `rows` selects `(rank, type, data)`, events made by
 * builders.ts with what only the statement knows bound in; they are written by rank. The caller
 * announces them once the statement committed (eventsCommitted, service.ts).
 */
export const eventsInsertSql = (rows: Prisma.Sql, occurredAt: Prisma.Sql) => Prisma.sql`
      INSERT INTO events (type, occurred_at, data)
      SELECT e.type, ${occurredAt}, e.data
        FROM (${rows}) e(rank, type, data)
       ORDER BY e.rank`;

/**
 * The envelope of an event, `{type, timestamp, data}`, as webhooks deliver it and the feed lists
 * it (with its id and sequence): made here only, for events (the sequencer's fan-out, the feed)
 * and for pings (insertPingDelivery). `timestamp` is ISO 8601 in UTC with milliseconds, as
 * `Date.toISOString` writes it.
 */
export const envelopeSql = (type: Prisma.Sql, occurredAt: Prisma.Sql, data: Prisma.Sql) =>
  Prisma.sql`jsonb_build_object(
    'type', ${type},
    'timestamp', to_char(${occurredAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', ${data})`;

/**
 * The sequencer's lock (a transaction-level advisory lock; the number is this one's own): one
 * sequencer at a time, across every replica.
 */
export const SEQUENCER_LOCK = 2_302_026_112_501n;

/** Takes the sequencer's lock until the end of the transaction (see sequenceEvents). */
export async function lockSequencer(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK}::bigint)`;
}

/**
 * Numbers the committed events that have no sequence yet, after every number given before,
 * oldest insert first; returns how many it numbered (at most `batch`).
 *
 * Why numbers follow commit order. A number drawn when the row is inserted (a `bigserial`) does
 * not: two transactions draw 7 and 8, the one with 8 commits first, a reader lists 8 and moves
 * on, and 7 appears behind it. Here nothing is numbered before it is committed: the sequencer
 * takes the lock, and only then (its UPDATE is a later statement, so its snapshot is taken after
 * the previous sequencer committed) numbers the rows it sees, the committed ones, from the highest
 * number given so far. A row committed after that snapshot stays unnumbered until the next run,
 * which gives it a higher number. So a feed reader that lists only numbered rows and has read up
 * to n never finds a row below n later. Writers never wait for it: they insert unnumbered rows
 * and commit as before; only sequencers take the lock, each for one short UPDATE.
 *
 * Numbering an event also queues its deliveries, one per enabled webhook that wants its type,
 * in the same statement: every event a subscription should get is queued exactly once.
 *
 * Retention never deletes the highest numbered row (see deleteEventsBefore), so numbering goes on
 * from it rather than starting again.
 */
export async function sequenceEvents(tx: Tx, batch: number): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ numbered: number }>>`
      WITH last AS (SELECT coalesce(max(sequence), 0) AS n FROM events),
      next AS (
        SELECT e.id, last.n + row_number() OVER (ORDER BY e.position) AS sequence
          FROM events e CROSS JOIN last
         WHERE e.sequence IS NULL
         ORDER BY e.position
         LIMIT ${batch}
      ), numbered AS (
        UPDATE events e SET sequence = next.sequence FROM next WHERE e.id = next.id
        RETURNING e.id, e.type, e.occurred_at, e.data
      ), fanned_out AS (
        INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload,
                                        next_attempt_at, updated_at)
        SELECT w.id, n.id, n.type,
               ${envelopeSql(Prisma.sql`n.type`, Prisma.sql`n.occurred_at`, Prisma.sql`n.data`)},
               now(), now()
          FROM numbered n
          JOIN webhooks w ON w.enabled AND (n.type = ANY(w.events) OR '*' = ANY(w.events))
      )
      SELECT count(*)::int AS numbered FROM numbered`;
  return row?.numbered ?? 0;
}

/** Whether any committed event still waits for its number. */
export async function hasUnsequencedEvents(db: Db): Promise<boolean> {
  const [row] = await db.$queryRaw<Array<{ waiting: boolean }>>`
    SELECT EXISTS (SELECT FROM events WHERE sequence IS NULL) AS waiting`;
  return row?.waiting ?? false;
}

/** Numbered events after `after`, by sequence, each with its envelope. */
export const findEventsAfter = (db: Db, after: number, limit: number): Promise<EventRow[]> =>
  db.$queryRaw<EventRow[]>`
    SELECT e.id::text AS id, e.sequence,
           ${envelopeSql(Prisma.sql`e.type`, Prisma.sql`e.occurred_at`, Prisma.sql`e.data`)}
             AS envelope
      FROM events e
     WHERE e.sequence > ${after}::bigint
     ORDER BY e.sequence
     LIMIT ${limit}::int`;

/**
 * Deletes the numbered events that occurred before `before`, except the highest numbered one,
 * from which numbering goes on, and in the same statement their deliveries to every subscription
 * (found through the deliveries' (event_id, webhook_id) key; their attempts go with them, by the
 * foreign key). Returns how many events it deleted.
 */
export async function deleteEventsBefore(tx: Tx, before: Date): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ events: number }>>`
    WITH expired AS (
      DELETE FROM events
       WHERE occurred_at < ${before}
         AND sequence < (SELECT max(sequence) FROM events)
      RETURNING id
    ), copies AS (
      DELETE FROM webhook_deliveries d USING expired e WHERE d.event_id = e.id
    )
    SELECT count(*)::int AS events FROM expired`;
  return row?.events ?? 0;
}
