import type { EventData, EventType } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';

/** An event to write with the change that causes it. */
export interface NewEvent<T extends EventType = EventType> {
  type: T;
  data: EventData[T];
  occurredAt: Date;
}

/** A numbered event as stored. */
export interface EventRow {
  id: string;
  sequence: bigint;
  type: string;
  occurredAt: Date;
  data: unknown;
}

/**
 * Writes events in the caller's transaction, in the order given (their `position`), unnumbered:
 * they are visible, and numbered, only once that transaction commits.
 */
export async function insertEvents(tx: Tx, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.event.createMany({
    data: events.map((e) => ({
      type: e.type,
      occurredAt: e.occurredAt,
      data: e.data,
    })),
  });
}

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
               jsonb_build_object(
                 'type', n.type,
                 'timestamp', to_char(n.occurred_at AT TIME ZONE 'UTC',
                                      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'data', n.data),
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

/** Numbered events after `after`, by sequence. */
export const findEventsAfter = (db: Db, after: number, limit: number): Promise<EventRow[]> =>
  db.event.findMany({
    where: { sequence: { gt: BigInt(after) } },
    orderBy: { sequence: 'asc' },
    take: limit,
    select: { id: true, sequence: true, type: true, occurredAt: true, data: true },
  }) as Promise<EventRow[]>;

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
