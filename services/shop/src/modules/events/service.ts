import type { EventFeed, EventFeedQuery } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { deleteDeliveriesWithoutEvent } from '../webhooks/repository.js';
import { eventToDto } from './mapper.js';
import {
  deleteEventsBefore,
  findEventsAfter,
  hasUnsequencedEvents,
  hasWrittenEvents,
  lockSequencer,
  sequenceEvents,
  type EventTx,
} from './repository.js';

/**
 * Who is told when this replica commits events: its delivery worker (plugins/webhook-delivery.ts),
 * which then numbers and sends them at once instead of at its next poll. Per database client, so
 * each app (and test app) has its own.
 */
const listeners = new WeakMap<Db, () => void>();

/** `listener` is told each time events written through `db` have committed. */
export const onEventsCommitted = (db: Db, listener: () => void): void => {
  listeners.set(db, listener);
};

/**
 * Events written through `db` have just committed. Called by writeEvents, and by a statement
 * that writes events in its own one-statement transaction (placing an order) once it returns.
 */
export const eventsCommitted = (db: Db): void => listeners.get(db)?.();

/**
 * Runs `write` in a transaction whose events (insertEvents takes only this transaction's client)
 * are announced to this replica's delivery worker once it commits: where an event is written,
 * never on a route. Options as `db.$transaction`'s.
 */
export async function writeEvents<T>(
  db: Db,
  write: (tx: EventTx) => Promise<T>,
  options?: {
    maxWait?: number;
    timeout?: number;
    isolationLevel?: Prisma.TransactionIsolationLevel;
  },
): Promise<T> {
  let used: EventTx | undefined;
  const result = await db.$transaction(async (tx) => {
    used = tx as EventTx;
    return write(used);
  }, options);
  if (used && hasWrittenEvents(used)) eventsCommitted(db);
  return result;
}

/** How many events one sequencer statement numbers. */
const SEQUENCE_BATCH = 1000;

/** Numbers every event committed so far (see sequenceEvents); returns how many. */
export async function sequenceCommittedEvents(db: Db): Promise<number> {
  let numbered = 0;
  while (await hasUnsequencedEvents(db)) {
    // The lock and the numbering in one transaction: the lock is held until it commits.
    const count = await db.$transaction(async (tx) => {
      await lockSequencer(tx);
      return sequenceEvents(tx, SEQUENCE_BATCH);
    });
    numbered += count;
    if (count < SEQUENCE_BATCH) break;
  }
  return numbered;
}

/**
 * The feed: events after `after` in commit order. Events committed before the request are
 * numbered first, so a client sees its own changes at once.
 */
export async function listEvents(db: Db, query: EventFeedQuery): Promise<EventFeed> {
  await sequenceCommittedEvents(db);
  const events = (await findEventsAfter(db, query.after, query.limit)).map(eventToDto);
  return { events, next_after: events.at(-1)?.sequence ?? query.after };
}

/**
 * Retention: deletes the events that occurred more than `retentionDays` ago (but the newest
 * numbered, from which numbering goes on) with every copy of them, their deliveries to each
 * subscription and those deliveries' attempts; then the pings and any deliveries left without
 * their event queued as long ago. Two statements, no transaction: each deletes whole events
 * with their copies, and the second finds next time what a failed run left.
 */
export async function deleteExpiredEvents(
  db: Db,
  retentionDays: number,
  now = Date.now(),
): Promise<{ events: number; deliveries: number }> {
  const before = new Date(now - retentionDays * 24 * 60 * 60_000);
  const events = await deleteEventsBefore(db, before);
  const deliveries = await deleteDeliveriesWithoutEvent(db, before);
  return { events, deliveries };
}
