// The delivery worker's slot accounting, claim schedule and waits (slots.ts, backoff.ts), with no
// database, network or timers: every time is passed in. End to end (a real receiver, PostgreSQL)
// in webhook-delivery.test.ts.
import { describe, expect, it } from '@jest/globals';
import { NumberingPace, retryDelayMs, SEQUENCE_AGAIN_MS } from '../src/modules/webhooks/backoff.js';
import type { ClaimRequest } from '../src/modules/webhooks/repository.js';
import {
  AHEAD,
  AHEAD_WAIT_MAX_MS,
  CONCURRENCY,
  CONTENDED_RETRY_MS,
  PER_WEBHOOK,
  QUICK_IN_FLIGHT,
  READY_MAX,
  RECORD_WITHIN_MS,
  Slots,
} from '../src/modules/webhooks/slots.js';

interface D {
  id: number;
  webhookId: number;
  attempts: number;
}

const TIMINGS = { pollIntervalMs: 250, claimLeaseMs: 70_000, timeoutMs: 10_000 };
let nextId = 1;
const deliveries = (webhookId: number, n: number): D[] =>
  Array.from({ length: n }, () => ({ id: nextId++, webhookId, attempts: 1 }));

/**
 * Started slots and a clock; `claim` runs a turn whose claim (if one is due) finds `due` and gets
 * `got`; `claimNow` asks for that claim first (as numbering does after it queued deliveries).
 */
function setUp(timings = TIMINGS) {
  const slots = new Slots<D, string>(timings);
  slots.start();
  let now = 1_000_000;
  const clock = {
    now: () => now,
    advance: (ms: number) => (now += ms),
  };
  const claim = (got: D[], due: Record<number, number> = {}) => {
    const askedAt = now;
    const turn = slots.beginTurn(now);
    if (!turn.claim) return { turn, request: null, moves: null };
    const dueMap = new Map(Object.entries(due).map(([id, n]) => [Number(id), n]));
    const moves = slots.turnDone(
      now,
      turn,
      { dueNow: false, claim: { deliveries: got, due: dueMap } },
      askedAt,
    );
    return { turn, request: turn.claim, moves };
  };
  const claimNow = (got: D[], due: Record<number, number> = {}) => {
    slots.claimSoon(now);
    return claim(got, due);
  };
  return { slots, clock, claim, claimNow };
}

/** The room a claim asks for a webhook (its `room` entry, else the default). */
const roomOf = (request: ClaimRequest, webhookId: number) =>
  request.room.get(webhookId) ?? request.defaultRoom ?? request.perWebhook;

describe('slots per receiver', () => {
  it('sends 4 of a receiver at once until it answers 2xx within a second, then 16', () => {
    const { slots, clock, claim } = setUp();
    const first = claim(deliveries(1, PER_WEBHOOK), { 1: PER_WEBHOOK });
    expect(first.request).toMatchObject({ limit: CONCURRENCY, defaultRoom: PER_WEBHOOK });
    expect(roomOf(first.request!, 1)).toBe(4);
    expect(first.moves!.send).toHaveLength(4);
    expect(slots.of(1)).toEqual({ inFlight: 4, waiting: 0, cap: 4 });

    clock.advance(30);
    const [answered] = first.moves!.send;
    slots.answered(clock.now(), answered!, true, 30);
    slots.toRecord('answer');
    expect(slots.of(1).cap).toBe(QUICK_IN_FLIGHT);
    // Its backlog is claimed at the turn that records the answer: 16 in flight and 8 ahead.
    const next = claim([], {});
    expect(next.turn.records).toEqual(['answer']);
    expect(roomOf(next.request!, 1)).toBe(QUICK_IN_FLIGHT + AHEAD - 3);
  });

  it('keeps a slow receiver at 4, and a quick one that fails or slows down back to 4', () => {
    const { slots, clock, claim } = setUp();
    const { moves } = claim(deliveries(1, 4), { 1: 4 });
    const [a, b, c] = moves!.send;
    slots.answered(clock.now(), a!, true, 1_500);
    expect(slots.of(1).cap).toBe(PER_WEBHOOK);
    slots.answered(clock.now(), b!, true, 20);
    expect(slots.of(1).cap).toBe(QUICK_IN_FLIGHT);
    slots.answered(clock.now(), c!, false, 20);
    expect(slots.of(1).cap).toBe(PER_WEBHOOK);
    // A failing receiver gets no more than its 4, and nothing claimed ahead.
    const next = claim([]);
    expect(roomOf(next.request!, 1)).toBe(PER_WEBHOOK - 1);
  });

  it('holds at most 32 attempts in the replica: no claim while they are held', () => {
    const { slots, claimNow } = setUp();
    for (let webhook = 1; webhook <= 8; webhook++) {
      claimNow(deliveries(webhook, 4), { [webhook]: 4 });
    }
    expect(slots.held()).toBe(CONCURRENCY);
    expect(claimNow([]).request).toBeNull();
    expect(slots.nextTurnIn(0)).toBe(TIMINGS.pollIntervalMs);
  });

  it('asks a claim for no more than the room left under the replica cap', () => {
    const { claimNow } = setUp();
    claimNow(deliveries(1, 4), { 1: 4 });
    claimNow(deliveries(2, 4), { 2: 4 });
    expect(claimNow([]).request!.limit).toBe(CONCURRENCY - 8);
  });
});

describe('claimed ahead', () => {
  /** A quick webhook with 16 in flight and `ahead` claimed ahead. */
  function quickWebhook(ahead: number, timings = TIMINGS) {
    const set = setUp(timings);
    const { slots, clock, claim, claimNow } = set;
    const { moves } = claim(deliveries(1, 1), { 1: 1 });
    slots.answered(clock.now(), moves!.send[0]!, true, 10);
    slots.toRecord('first');
    const { moves: burst } = claimNow(deliveries(1, QUICK_IN_FLIGHT + ahead), { 1: 24 });
    return { ...set, burst: burst! };
  }

  it('sends one waiting the moment an answer frees its slot', () => {
    const { slots, clock, burst } = quickWebhook(AHEAD);
    expect(burst.send).toHaveLength(QUICK_IN_FLIGHT);
    expect(slots.of(1)).toEqual({ inFlight: 16, waiting: 8, cap: 16 });
    clock.advance(5);
    const moves = slots.answered(clock.now(), burst.send[0]!, true, 5);
    expect(moves.send).toHaveLength(1);
    expect(moves.released).toEqual([]);
    expect(slots.of(1)).toEqual({ inFlight: 16, waiting: 7, cap: 16 });
    // While some wait, answers are recorded within a few ms, not at once.
    expect(slots.toRecord('answer')).toBe(RECORD_WITHIN_MS);
  });

  it('claims ahead at most 16 in all, shared by the quick webhooks', () => {
    const { slots, clock, claimNow } = setUp();
    for (const webhook of [1, 2, 3]) {
      const { moves } = claimNow(deliveries(webhook, 1), { [webhook]: 1 });
      slots.answered(clock.now(), moves!.send[0]!, true, 10);
    }
    const { request } = claimNow([]);
    const ahead = [1, 2, 3].map((id) => roomOf(request!, id) - QUICK_IN_FLIGHT);
    expect(ahead.reduce((a, b) => a + b, 0)).toBe(READY_MAX);
    expect(Math.max(...ahead)).toBe(AHEAD);
  });

  it('gives back unsent a claim that waited too long for a slot, at the next turn', () => {
    const { slots, clock, claim, burst } = quickWebhook(2);
    clock.advance(AHEAD_WAIT_MAX_MS + 1);
    const moves = slots.answered(clock.now(), burst.send[0]!, true, 10);
    expect(moves.send).toEqual([]);
    expect(moves.released).toHaveLength(2);
    expect(moves.turnInMs).toBe(0);
    const next = claim([]);
    expect(next.turn.released).toEqual(
      moves.released.map((d) => ({ id: d.id, attempts: d.attempts })),
    );
    expect(slots.of(1)).toEqual({ inFlight: 15, waiting: 0, cap: 16 });
    // Given back, they are due again at once: the next claim follows right away.
    expect(slots.nextTurnIn(clock.now())).toBe(0);
  });

  it('sends one claimed ahead only while its lease covers an attempt and a margin', () => {
    // 12 s lease − 10 s time-out − 1 s margin: sent within 1 s of the claim, given back after.
    const { slots, clock, burst } = quickWebhook(2, { ...TIMINGS, claimLeaseMs: 12_000 });
    clock.advance(1_000);
    expect(slots.answered(clock.now(), burst.send[0]!, true, 5).send).toHaveLength(1);
    clock.advance(1);
    const late = slots.answered(clock.now(), burst.send[1]!, true, 5);
    expect(late.send).toHaveLength(0);
    expect(late.released).toHaveLength(1);
  });
});

describe('claim schedule', () => {
  it('claims again at once while a capped claim left more due, and at the poll otherwise', () => {
    const { slots, clock, claim } = setUp();
    const capped = claim(deliveries(1, 4), { 1: 4 });
    expect(slots.nextTurnIn(clock.now())).toBe(TIMINGS.pollIntervalMs);
    // An answer frees a slot of the capped webhook: a claim at the turn that records it.
    slots.answered(clock.now(), capped.moves!.send[0]!, false, 10);
    expect(slots.toRecord('failed')).toBe(0);
    expect(claim([]).request).not.toBeNull();
  });

  it('backs off claiming while the rows due are being claimed by another replica', () => {
    const { slots, clock, claim } = setUp();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      // 40 due, none got (skipped), room left.
      claim([], { 1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4 });
      const wait = slots.nextTurnIn(clock.now());
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits).toEqual([10, 20, 40, 80, 160, 250].map((ms) => Math.min(ms, 250)));
    expect(waits[0]).toBe(CONTENDED_RETRY_MS);
    // Getting some ends the back-off.
    claim(deliveries(1, 1), { 1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4 });
    expect(slots.nextTurnIn(clock.now())).toBe(0);
  });

  it('claims nothing once stopped, but still records and sends what it holds', () => {
    const { slots, clock, claim } = setUp();
    const { moves } = claim(deliveries(1, 2), { 1: 2 });
    slots.stop();
    slots.answered(clock.now(), moves!.send[0]!, true, 5);
    expect(slots.toRecord('last')).toBe(0);
    const turn = slots.beginTurn(clock.now());
    expect(turn.records).toEqual(['last']);
    expect(turn.claim).toBeNull();
  });

  it('makes the next claim due at once when a recorded attempt is due again', () => {
    const { slots, clock, claim } = setUp();
    claim([]);
    expect(slots.nextTurnIn(clock.now())).toBe(TIMINGS.pollIntervalMs);
    const turn = slots.beginTurn(clock.now());
    expect(turn.claim).toBeNull();
    slots.turnDone(clock.now(), turn, { dueNow: true, claim: null }, clock.now());
    expect(slots.nextTurnIn(clock.now())).toBe(0);
  });
});

describe('backoff', () => {
  const schedule = [5_000, 300_000, 1_800_000];

  it('retries after the schedule, the last step repeating, within ±15 %', () => {
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(schedule, 2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(schedule, 9, () => 0.5)).toBe(1_800_000);
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(4_250);
    expect(retryDelayMs(schedule, 1, () => 1)).toBe(5_750);
  });

  it('numbers again soon after events came, backing off to the poll interval', () => {
    const pace = new NumberingPace(250);
    expect(pace.next(0)).toBe(250);
    expect(pace.next(3)).toBe(SEQUENCE_AGAIN_MS);
    expect([pace.next(0), pace.next(0), pace.next(0), pace.next(0)]).toEqual([40, 80, 160, 250]);
    expect(pace.next(0)).toBe(250);
    expect(pace.next(1)).toBe(SEQUENCE_AGAIN_MS);
  });
});
