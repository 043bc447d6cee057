import type { WebhookConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { deleteExpiredEvents, sequenceCommittedEvents } from '../events/service.js';
import { foldOrderStatusCounts } from '../order-admin/service.js';
import { NumberingPace, retryDelayMs, SEQUENCE_AGAIN_MS } from './backoff.js';
import { Loop } from './loop.js';
import {
  recordAndClaim,
  type AttemptRecord,
  type AttemptResult,
  type ClaimedDelivery,
  type Recorded,
} from './repository.js';
import { Sender } from './sender.js';
import { disableFailingWebhook } from './service.js';
import { Signer } from './signing.js';
import { Slots, type Moves } from './slots.js';

/** How often old events are deleted, with their deliveries (deleteExpiredEvents). */
const RETENTION_EVERY_MS = 60 * 60_000;

interface Logger {
  error: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
}

/** What the worker reports as it happens (the plugin counts it in the app's metrics). */
export interface DeliveryObserver {
  attempted: (outcome: 'delivered' | 'failed') => void;
  disabled: () => void;
}

/** An answered attempt until a turn records it, and what recording it came to. */
interface Unrecorded {
  record: AttemptRecord;
  resolve: (recorded: Recorded) => void;
  reject: (error: unknown) => void;
}

/**
 * Each replica's delivery worker: two loops and the attempts in flight. Its parts: the slot
 * accounting and claim schedule (slots.ts, no I/O), the HTTP exchange (sender.ts), the
 * signatures (signing.ts), the waits (backoff.ts) and the statements (repository.ts).
 *
 * Numbering: as soon as this replica has committed events (`eventsCommitted`, called when a
 * route that writes them answers; at most one run per SEQUENCE_AGAIN_MS), every
 * `pollIntervalMs`, and sooner while events keep coming (NumberingPace), it numbers newly
 * committed events, which queues their deliveries, and asks for a claim at once. The polls find
 * every event, whichever replica or path committed it.
 *
 * Turns: one statement each (recordAndClaim) records the attempts that ended since the last turn,
 * gives back claims never sent, and claims due deliveries up to the room the slots leave. Each
 * delivery is sent on its own, so a slow or dead receiver delays only its own deliveries: every
 * attempt is bounded by the time-out. A turn runs as soon as an attempt ends (to record it), and
 * claims every `pollIntervalMs` while nothing more is known to be due, and at once when room
 * frees up for a claim that was cut short by a cap, so a backlog is sent as fast as the receiver
 * answers, not a claim per interval.
 *
 * Why not pg-boss: the deliveries are one table we own, written by the same statement that
 * numbers the events (no second queue to keep in step, nothing to lose between the outbox and a
 * job), and a delivery's log and state are plain rows the API reads.
 */
export class DeliveryWorker {
  private readonly slots: Slots<ClaimedDelivery, Unrecorded>;
  /** Every attempt until recorded (stop waits for them). */
  private readonly attempts = new Set<Promise<void>>();
  private readonly sender: Sender;
  private readonly signer: Signer;
  private readonly pace: NumberingPace;
  private readonly numbering = new Loop(() => this.number());
  private readonly turns = new Loop(() => this.turn());
  private lastRetention = 0;

  /**
   * `db` for the numbering and the rarer writes; `statements` (`pg` on the same pool) for the
   * turn's statement, which runs once or more per few deliveries (db/sql-reads.ts).
   */
  constructor(
    private readonly db: Db,
    private readonly statements: SqlReads,
    private readonly config: WebhookConfig,
    private readonly log: Logger,
    private readonly observer: DeliveryObserver = { attempted: () => {}, disabled: () => {} },
  ) {
    this.slots = new Slots(config);
    this.sender = new Sender(config);
    this.signer = new Signer(config.secretKey);
    this.pace = new NumberingPace(config.pollIntervalMs);
  }

  start(): void {
    this.slots.start();
    this.numbering.start();
    this.turns.start();
  }

  /**
   * Stops numbering and claiming, waits for the attempts in flight (each ends within the
   * time-out) to be recorded, then stops.
   */
  async stop(): Promise<void> {
    this.slots.stop();
    await this.numbering.stop();
    // Those claimed ahead are sent as slots free up (they are this replica's until their lease
    // ends): the attempts started meanwhile are waited for too.
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
    await this.turns.stop();
    this.sender.destroy();
  }

  /**
   * Events were committed here: numbered now, or SEQUENCE_AGAIN_MS after the last numbering run
   * started, so a stream of commits is numbered in batches rather than a run each.
   */
  eventsCommitted(): void {
    this.numbering.runIn(Math.max(0, this.numbering.startedAt + SEQUENCE_AGAIN_MS - Date.now()));
  }

  /** Numbers committed events (queueing their deliveries); deletes expired ones now and then. */
  private async number(): Promise<number> {
    try {
      const numbered = await sequenceCommittedEvents(this.db);
      await this.keepRetention();
      if (numbered > 0) {
        this.slots.claimSoon(Date.now());
        this.turns.runIn(0);
      }
      return this.pace.next(numbered);
    } catch (error) {
      this.log.error({ err: error }, 'webhook event numbering failed');
      return this.config.pollIntervalMs;
    }
  }

  /** One turn: records what ended, claims if due and there is room; the wait until the next. */
  private async turn(): Promise<number> {
    const askedAt = Date.now();
    const turn = this.slots.beginTurn(askedAt);
    const { records, released, claim } = turn;
    if (records.length > 0 || claim || released.length > 0) {
      try {
        const result = await recordAndClaim(
          this.statements,
          records.map((r) => r.record),
          claim,
          released,
        );
        records.forEach((r, i) => r.resolve(result.recorded[i]!));
        const dueNow = result.recorded.some((r) => r.dueNow);
        this.moved(this.slots.turnDone(Date.now(), turn, { dueNow, claim: result.claim }, askedAt));
      } catch (error) {
        for (const r of records) r.reject(error);
        this.log.error({ err: error }, 'webhook delivery turn failed');
        this.slots.turnEnded(Date.now(), claim);
      }
    }
    return this.slots.nextTurnIn(Date.now());
  }

  /** Does what the slots decided: sends, logs what was given back, asks for a turn. */
  private moved(moves: Moves<ClaimedDelivery>): void {
    for (const delivery of moves.released) {
      this.log.info(
        { delivery: delivery.id, attempt: delivery.attempts },
        'webhook delivery claimed ahead given back unsent: it waited too long for a slot',
      );
    }
    if (moves.turnInMs !== null) this.turns.runIn(moves.turnInMs);
    for (const delivery of moves.send) this.track(delivery);
  }

  /** Sends a claimed delivery and records the attempt. */
  private track(delivery: ClaimedDelivery): void {
    const attempt = this.attempt(delivery)
      .catch((error: unknown) => {
        // Left claimed: it is due again when its lease ends.
        this.log.error({ err: error, delivery: delivery.id }, 'webhook delivery failed to record');
      })
      .finally(() => this.attempts.delete(attempt));
    this.attempts.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = new Date();
    const started = performance.now();
    // One buffer for the signature and the request (not a string encoded twice).
    const body = Buffer.from(delivery.payload);
    const outcome = await this.sender
      .send(delivery.url, () => this.signer.headers(delivery, body, at), body)
      .catch((error: unknown) => ({
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
      }));
    const durationMs = Math.round(performance.now() - started);
    const delivered =
      outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    this.moved(this.slots.answered(Date.now(), delivery, delivered, durationMs));
    this.observer.attempted(delivered ? 'delivered' : 'failed');
    const result: AttemptResult = {
      at,
      ...outcome,
      durationMs,
      delivered,
      retryAt: delivered
        ? null
        : new Date(Date.now() + retryDelayMs(this.config.retryScheduleMs, delivery.attempts)),
    };
    const { recorded, failingSince } = await this.record(delivery, result);
    if (!recorded) {
      // The claim ran out before the attempt ended and another worker claimed the delivery
      // again (or it was deleted): that worker's attempt decides; this one is not recorded.
      this.log.warn(
        {
          delivery: delivery.id,
          attempt: delivery.attempts,
          outcome: delivered ? 'delivered' : (outcome.error ?? `status ${outcome.statusCode}`),
        },
        'webhook delivery attempt not recorded: its claim had ended and the delivery was claimed again or deleted',
      );
      return;
    }
    if (failingSince && Date.now() - failingSince.getTime() >= this.config.disableAfterMs) {
      const last = outcome.error ?? `status ${outcome.statusCode}`;
      const disabled = await disableFailingWebhook(
        this.db,
        delivery.webhookId,
        failingSince,
        `deliveries failed since ${failingSince.toISOString()} (last: ${last})`,
      );
      if (disabled) this.observer.disabled();
    }
  }

  /** Queues the attempt for the next turn, which records it; what recording it came to. */
  private record(delivery: ClaimedDelivery, result: AttemptResult): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.turns.runIn(this.slots.toRecord({ record: { delivery, result }, resolve, reject }));
    });
  }

  private async keepRetention(): Promise<void> {
    if (Date.now() - this.lastRetention < RETENTION_EVERY_MS) return;
    this.lastRetention = Date.now();
    await deleteExpiredEvents(this.db, this.config.eventRetentionDays);
    // The same housekeeping turn: the kept order counts of backends that are gone, folded.
    await foldOrderStatusCounts(this.db);
  }
}
