import type { Claim, ClaimRequest, ReleasedClaim } from './repository.js';

/**
 * The worker's figures. Attempts one worker runs at once (CONCURRENCY), and at most per webhook
 * (PER_WEBHOOK, so one slow receiver holds few); a webhook whose receiver answers 2xx within
 * QUICK_MS may have up to QUICK_IN_FLIGHT: under load each exchange takes longer on the shop's
 * side (tens of ms), and 4 at a time would then carry fewer events a second than a busy shop
 * commits.
 *
 * For a quick webhook AHEAD more are claimed beyond those in flight (at most READY_MAX waiting in
 * all, within CONCURRENCY), so the next is sent as soon as an answer frees a slot instead of after
 * the turn that records the answer and claims the next; never for a webhook that fails or answers
 * slowly, so a slow receiver holds no more than its PER_WEBHOOK (and what it held before it slowed
 * down). One claimed ahead is sent only while its claim still covers a whole attempt and
 * LEASE_MARGIN_MS, and at most AHEAD_WAIT_MAX_MS after it was claimed (a subscription disabled or
 * deleted meanwhile gets nothing later than that); otherwise it is given back unsent.
 *
 * While some claimed ahead wait for slots, attempts that ended are recorded within
 * RECORD_WITHIN_MS, so one turn records the answers that come in meanwhile too. A claim that found
 * more due than it got, with room left, and got none (rows another worker was claiming, skipped)
 * is tried again after CONTENDED_RETRY_MS, doubled while that goes on, up to the poll interval.
 */
export const CONCURRENCY = 32;
export const PER_WEBHOOK = 4;
export const QUICK_IN_FLIGHT = 16;
export const AHEAD = 8;
export const READY_MAX = 16;
export const QUICK_MS = 1_000;
export const LEASE_MARGIN_MS = 1_000;
export const AHEAD_WAIT_MAX_MS = 5_000;
export const RECORD_WITHIN_MS = 5;
export const CONTENDED_RETRY_MS = 10;

/** What the slots need of a claimed delivery. */
export type SlotDelivery = ReleasedClaim & { webhookId: number };

/** The timings the slots follow (the worker's config). */
export interface SlotTimings {
  pollIntervalMs: number;
  claimLeaseMs: number;
  timeoutMs: number;
}

/** What to do after a change: send these now, log these as given back, and a turn within. */
export interface Moves<D> {
  send: D[];
  released: D[];
  /** A turn is wanted within this (a claim was given back: it is uncounted at that turn). */
  turnInMs: number | null;
}

/**
 * The worker's slot accounting and claim schedule, with no I/O: every time is passed in (`now`,
 * ms since the epoch), and each method says what to send and when the next turn is wanted.
 *
 * Per webhook: requests in flight (up to its cap: PER_WEBHOOK, QUICK_IN_FLIGHT while its last
 * attempt was a 2xx within QUICK_MS), and deliveries claimed ahead waiting for a slot. In all:
 * CONCURRENCY attempts claimed and not yet recorded (waiting, in flight, answered). A claim asks
 * for the room under both caps; what it finds more of (a webhook or the worker at its cap) is a
 * backlog, claimed again as soon as room frees up instead of at the next poll.
 *
 * `R` is what the worker keeps of an answered attempt until a turn records it.
 */
export class Slots<D extends SlotDelivery, R = unknown> {
  /** Requests in flight, in all and per webhook. */
  private sending = 0;
  private readonly inFlight = new Map<number, number>();
  /** Claimed and waiting for a slot of their webhook (claimed ahead), in all and per webhook. */
  private waiting = 0;
  private readonly ready = new Map<number, Array<{ delivery: D; sendBy: number }>>();
  /** Webhooks whose last attempt here was answered 2xx within QUICK_MS: claimed ahead for. */
  private readonly quick = new Set<number>();
  /** Attempts answered and waiting to be recorded. */
  private unrecorded: R[] = [];
  /** Claimed ahead, never sent, to be given back at the next turn. */
  private released: ReleasedClaim[] = [];
  /** Webhooks whose last claim was cut by their cap: more of theirs may be due. */
  private readonly backlogged = new Set<number>();
  /** The last claim was cut by the worker's cap: more may be due. */
  private backlog = false;
  /** When the next claim is due (ms since the epoch); Infinity while a claim runs. */
  private claimAt = 0;
  /** Claims in a row that found due rows with room for them and got none. */
  private contended = 0;
  private claiming = false;

  constructor(private readonly timings: SlotTimings) {}

  /** Claims from now on. */
  start(): void {
    this.claiming = true;
    this.claimAt = 0;
  }

  /** No more claims; what is held is still sent and recorded. */
  stop(): void {
    this.claiming = false;
  }

  /** A claim at the next turn (the worker runs that turn now). */
  claimSoon(now: number): void {
    this.claimAt = Math.min(this.claimAt, now);
  }

  /**
   * A turn begins: the answered attempts to record, the claims to give back, and the claim to
   * ask for (null: none is due, or no room, or stopping).
   */
  beginTurn(now: number): { records: R[]; released: ReleasedClaim[]; claim: ClaimRequest | null } {
    const records = this.unrecorded;
    const released = this.released;
    this.unrecorded = [];
    this.released = [];
    const free = CONCURRENCY - this.held();
    if (!this.claiming || free <= 0 || now < this.claimAt)
      return { records, released, claim: null };
    const room = new Map<number, number>();
    let ahead = READY_MAX - this.waiting;
    for (const id of new Set([...this.inFlight.keys(), ...this.ready.keys(), ...this.quick])) {
      const extra = this.quick.has(id) ? Math.max(0, Math.min(AHEAD, ahead)) : 0;
      ahead -= extra;
      room.set(id, Math.max(0, this.inFlightCap(id) + extra - this.heldFor(id)));
    }
    // Asked for again (claimSoon) by what happens meanwhile, else planned at the turn's end.
    this.claimAt = Infinity;
    const claim = {
      limit: free,
      perWebhook: QUICK_IN_FLIGHT + AHEAD,
      defaultRoom: PER_WEBHOOK,
      leaseMs: this.timings.claimLeaseMs,
      room,
    };
    return { records, released, claim };
  }

  /**
   * The turn's statement succeeded: `dueNow` (a recorded attempt is due again at once, made due
   * by a retry during it) or claims given back make the next claim due at once; what was claimed
   * is sent up to each webhook's cap, the rest as its answers free slots.
   */
  turnDone(
    now: number,
    turn: { claim: ClaimRequest | null; released: ReleasedClaim[] },
    result: { dueNow: boolean; claim: Claim<D> | null },
    askedAt: number,
  ): Moves<D> {
    if (result.dueNow || turn.released.length > 0) this.claimAt = now;
    const moves: Moves<D> =
      turn.claim && result.claim
        ? this.claimed(now, turn.claim, result.claim, askedAt)
        : { send: [], released: [], turnInMs: null };
    this.turnEnded(now, turn.claim);
    return moves;
  }

  /** The turn ended (its statement failed, or after turnDone): the next claim, if none is set. */
  turnEnded(now: number, claim: ClaimRequest | null): void {
    if (claim && this.claimAt === Infinity) this.claimAt = now + this.timings.pollIntervalMs;
  }

  /** The wait until the next turn. */
  nextTurnIn(now: number): number {
    if (this.unrecorded.length > 0 || this.released.length > 0) return this.recordWait();
    // No room (or stopping): an attempt that ends asks for the next turn.
    if (!this.claiming || this.held() >= CONCURRENCY) return this.timings.pollIntervalMs;
    return Math.max(0, Math.min(this.claimAt - now, this.timings.pollIntervalMs));
  }

  /**
   * An attempt was answered (or failed) after `durationMs`: its webhook's slot is free, the next
   * waiting one of it is sent, and room for a backlog is claimed at the turn that records this.
   */
  answered(now: number, delivery: D, delivered: boolean, durationMs: number): Moves<D> {
    const id = delivery.webhookId;
    if (delivered && durationMs <= QUICK_MS) this.quick.add(id);
    else this.quick.delete(id);
    this.sending--;
    const left = (this.inFlight.get(id) ?? 1) - 1;
    if (left > 0) this.inFlight.set(id, left);
    else this.inFlight.delete(id);
    const moves = this.pump(now, id, false);
    if (this.claiming && this.hasRoomForBacklog(id)) this.claimAt = Math.min(this.claimAt, now);
    return moves;
  }

  /** Keeps an answered attempt for the next turn to record; that turn is wanted within this. */
  toRecord(record: R): number {
    this.unrecorded.push(record);
    return this.recordWait();
  }

  /** Attempts claimed and not yet recorded: waiting, in flight, answered. */
  held(): number {
    return this.waiting + this.sending + this.unrecorded.length;
  }

  /** A webhook's deliveries held here, and its cap in flight (for tests and logs). */
  of(webhookId: number): { inFlight: number; waiting: number; cap: number } {
    return {
      inFlight: this.inFlight.get(webhookId) ?? 0,
      waiting: this.ready.get(webhookId)?.length ?? 0,
      cap: this.inFlightCap(webhookId),
    };
  }

  /** Starts what was claimed; notes what may be left due, and when to claim next. */
  private claimed(now: number, request: ClaimRequest, claim: Claim<D>, askedAt: number): Moves<D> {
    const room = request.room;
    const defaultRoom = request.defaultRoom ?? request.perWebhook;
    // Webhooks at their cap were not looked at: they stay as they were.
    for (const id of this.backlogged) {
      if ((room.get(id) ?? defaultRoom) > 0) this.backlogged.delete(id);
    }
    let due = 0;
    for (const [id, n] of claim.due) {
      due += n;
      if (n >= (room.get(id) ?? defaultRoom)) this.backlogged.add(id);
    }
    this.backlog = due > request.limit;
    const { claimLeaseMs, timeoutMs, pollIntervalMs } = this.timings;
    const sendBy =
      askedAt +
      Math.min(AHEAD_WAIT_MAX_MS, Math.max(0, claimLeaseMs - timeoutMs - LEASE_MARGIN_MS));
    const webhooks = new Set<number>();
    for (const delivery of claim.deliveries) {
      const queue = this.ready.get(delivery.webhookId) ?? [];
      queue.push({ delivery, sendBy });
      this.ready.set(delivery.webhookId, queue);
      this.waiting++;
      webhooks.add(delivery.webhookId);
    }
    const moves: Moves<D> = { send: [], released: [], turnInMs: null };
    for (const id of webhooks) this.pump(now, id, true, moves);
    // More was due than was claimed, with room left for it: attempts that ended meanwhile, or
    // rows another worker was claiming (skipped; again soon, backing off while that lasts).
    if (this.hasRoomForBacklog()) {
      const got = claim.deliveries.length > 0;
      const wait = got ? 0 : Math.min(CONTENDED_RETRY_MS * 2 ** this.contended++, pollIntervalMs);
      if (got) this.contended = 0;
      this.claimAt = Math.min(this.claimAt, now + wait);
    } else {
      this.contended = 0;
    }
    return moves;
  }

  /**
   * Sends a webhook's waiting deliveries while it has fewer than its cap in flight. One claimed
   * ahead that waited past its `sendBy` is given back unsent instead (`fresh`: just claimed).
   */
  private pump(
    now: number,
    id: number,
    fresh: boolean,
    moves: Moves<D> = { send: [], released: [], turnInMs: null },
  ): Moves<D> {
    const queue = this.ready.get(id);
    while (queue && queue.length > 0 && (this.inFlight.get(id) ?? 0) < this.inFlightCap(id)) {
      const { delivery, sendBy } = queue.shift()!;
      this.waiting--;
      if (!fresh && now > sendBy) {
        this.released.push({ id: delivery.id, attempts: delivery.attempts });
        moves.released.push(delivery);
        moves.turnInMs = Math.min(moves.turnInMs ?? Infinity, this.recordWait());
        continue;
      }
      this.sending++;
      this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
      moves.send.push(delivery);
    }
    if (queue && queue.length === 0) this.ready.delete(id);
    return moves;
  }

  /** How soon a turn should record the attempts that ended (see RECORD_WITHIN_MS). */
  private recordWait(): number {
    return this.waiting > 0 && this.claiming ? RECORD_WITHIN_MS : 0;
  }

  /** How many of a webhook's deliveries may be in flight at once here. */
  private inFlightCap(id: number): number {
    return this.quick.has(id) ? QUICK_IN_FLIGHT : PER_WEBHOOK;
  }

  /** A webhook's deliveries claimed here and not yet answered. */
  private heldFor(id: number): number {
    return (this.inFlight.get(id) ?? 0) + (this.ready.get(id)?.length ?? 0);
  }

  /** Whether a claim now could take something that the last one left due. */
  private hasRoomForBacklog(webhookId?: number): boolean {
    if (this.held() >= CONCURRENCY) return false;
    if (this.backlog) return true;
    const ids = webhookId === undefined ? this.backlogged : [webhookId];
    for (const id of ids) {
      const cap =
        this.inFlightCap(id) + (this.quick.has(id) && this.waiting < READY_MAX ? AHEAD : 0);
      if (this.backlogged.has(id) && this.heldFor(id) < cap) return true;
    }
    return false;
  }
}
