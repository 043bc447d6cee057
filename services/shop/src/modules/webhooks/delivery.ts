import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { deleteEventsBefore } from '../events/repository.js';
import { sequenceCommittedEvents } from '../events/service.js';
import {
  recordAndClaim,
  type AttemptRecord,
  type AttemptResult,
  type Claim,
  type ClaimedDelivery,
  type ClaimRequest,
  type Recorded,
  type ReleasedClaim,
} from './repository.js';
import { OpenedSecrets, openSecret } from './secrets.js';
import { disableFailingWebhook } from './service.js';

/** At most this much of an answer is read; the rest is not waited for. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * Attempts one worker runs at once, and at most per webhook (so one slow receiver holds few);
 * a webhook whose receiver answers quickly (QUICK_MS) may have up to QUICK_IN_FLIGHT: under
 * load each exchange takes longer on the shop's side (tens of ms), and 4 at a time would then
 * carry fewer events a second than a busy shop commits.
 */
const CONCURRENCY = 32;
const PER_WEBHOOK = 4;
const QUICK_IN_FLIGHT = 16;
/**
 * Deliveries claimed ahead for a webhook whose receiver answers quickly (QUICK_MS), beyond those
 * in flight, so that the next is sent as soon as an answer frees a slot instead of after the
 * turn that records the answer and claims the next: a turn (one statement) then records and
 * claims several at once. At most READY_MAX waiting in all (within CONCURRENCY). Never for a
 * webhook that fails or answers slowly, so a slow receiver holds no more of the replica than its
 * PER_WEBHOOK (and what it held before it slowed down).
 */
const AHEAD = 8;
const READY_MAX = 16;
const QUICK_MS = 1_000;
/**
 * A delivery claimed ahead is sent only while its claim (`claimLeaseMs`, from before the claim
 * was asked for) still covers a whole attempt (`timeoutMs`) and this margin: otherwise its claim
 * is given back unsent at the next turn (the attempt it counted uncounted), due again at once.
 */
const LEASE_MARGIN_MS = 1_000;
/**
 * And at most this long after it was claimed: a subscription disabled or deleted meanwhile gets
 * nothing claimed ahead later than this (what waits longer is given back, as above).
 */
const AHEAD_WAIT_MAX_MS = 5_000;
/**
 * While deliveries claimed ahead wait for slots (so no slot idles for want of a claim), attempts
 * that ended are recorded within this, not at once: a turn then records the answers that come in
 * meanwhile too.
 */
const RECORD_WITHIN_MS = 5;
/**
 * The wait before claiming again when a claim found more due than it got, with room left, and
 * got none: rows another worker was claiming at that moment (skipped, not waited for). Doubled
 * while that goes on, up to the poll interval.
 */
const CONTENDED_RETRY_MS = 10;
/** How long a connection to a receiver is kept idle for its next request. */
const KEEP_ALIVE_IDLE_MS = 4_000;
/**
 * The least time between the starts of two numbering runs asked for by commits, and the wait
 * before numbering again after a run that numbered events (more are likely on their way): short,
 * so deliveries are queued soon after the commit, yet one run numbers a batch.
 */
const SEQUENCE_AGAIN_MS = 20;
/** How often old events are deleted. */
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

/**
 * The Standard Webhooks headers for one attempt: `webhook-id` (the event id, the same on every
 * attempt), `webhook-timestamp` (now) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`), by the
 * current secret and, while a rotation's overlap lasts, by the previous one too.
 */
export function signedHeaders(
  delivery: Pick<ClaimedDelivery, 'eventId' | 'payload'>,
  signers: Array<Pick<Webhook, 'sign'>>,
  now: Date,
): Record<string, string> {
  const signatures = signers.map((signer) => signer.sign(delivery.eventId, now, delivery.payload));
  return {
    'content-type': 'application/json',
    'user-agent': 'dogshop-webhooks/1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-length': String(Buffer.byteLength(delivery.payload)),
  };
}

/** What `post` needs of a target URL, parsed once per URL (not per request). */
interface Target {
  https: boolean;
  options: http.RequestOptions;
}

/** Targets by URL, parsed; started over when it holds this many. */
const TARGETS_KEPT = 1_000;

/**
 * POSTs `body` once: no redirect followed (a 3xx is a failure), at most `timeoutMs` for the whole
 * exchange, at most 64 kB of the answer read. The agents resolve the host, refuse non-public
 * addresses (unless allowed) and connect to the address they checked. A connection whose answer
 * was read to its end is kept for the next request to that receiver (keep-alive: no new TCP or
 * TLS handshake per event); any other is closed.
 */
function post(
  target: Target,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; agents: { http: http.Agent; https: https.Agent } },
): Promise<{ statusCode: number | null; error: string | null }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reusable) request.destroy();
      resolve({ statusCode, error });
    };
    const request = (target.https ? https : http).request({
      ...target.options,
      method: 'POST',
      headers,
      agent: target.https ? options.agents.https : options.agents.http,
    });
    const timer = setTimeout(
      () => finish(null, `no answer within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish(response.statusCode ?? null, null);
      });
      response.on('end', () => finish(response.statusCode ?? null, null, true));
      response.on('error', () => finish(response.statusCode ?? null, null));
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(null, error.code ? `${error.code}: ${error.message}` : error.message),
    );
    request.end(body);
  });
}

/** The wait before the next attempt after `attempts` failed ones, ±15 % so retries spread. */
export function retryDelayMs(schedule: number[], attempts: number, random = Math.random): number {
  const base = schedule[Math.min(attempts, schedule.length) - 1] ?? schedule.at(-1) ?? 60_000;
  return Math.round(base * (0.85 + 0.3 * random()));
}

/**
 * Runs `step` once at a time, again when the delay it returns has passed, or sooner when asked
 * (`runIn`): a request made while it runs is kept for when it ends.
 */
class Loop {
  private timer: NodeJS.Timeout | undefined;
  /** When the planned run starts (ms since the epoch). */
  private timerAt = 0;
  private running: Promise<void> | undefined;
  /** The soonest run asked for while one ran (ms since the epoch), else Infinity. */
  private wantedAt = Infinity;
  private stopped = true;
  /** When the last run started (ms since the epoch). */
  startedAt = 0;

  constructor(private readonly step: () => Promise<number>) {}

  start(): void {
    this.stopped = false;
    this.runIn(0);
  }

  /** No more runs; the one running (if any) ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The next run in `delayMs`, unless one is planned sooner. */
  runIn(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.wantedAt = Math.min(this.wantedAt, Date.now() + delayMs);
      return;
    }
    if (this.timer && this.timerAt <= Date.now() + delayMs) return;
    clearTimeout(this.timer);
    this.timerAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wantedAt = Infinity;
      this.startedAt = Date.now();
      this.running = this.step().then((next) => {
        this.running = undefined;
        this.runIn(Math.min(next, Math.max(0, this.wantedAt - Date.now())));
      });
    }, delayMs);
  }
}

/**
 * Each replica's delivery worker: two loops and the attempts in flight.
 *
 * Numbering: as soon as this replica has committed events (`eventsCommitted`, called when a
 * route that writes them answers; at most one run per SEQUENCE_AGAIN_MS), every
 * `pollIntervalMs`, and SEQUENCE_AGAIN_MS after a run that numbered events (then twice as long
 * after each run that numbered none, up to `pollIntervalMs`), it numbers newly committed events,
 * which queues their deliveries, and asks for a claim at once. The polls find every event,
 * whichever replica or path committed it.
 *
 * Turns: one statement each (recordAndClaim) records the attempts that ended since the last turn
 * and claims due deliveries up to the room left under two caps: CONCURRENCY attempts in all
 * (claimed and not yet recorded) and PER_WEBHOOK requests in flight per webhook (QUICK_IN_FLIGHT
 * for a receiver that answers quickly). Each delivery is sent on its own, so a slow or dead
 * receiver delays only its own deliveries: every attempt is bounded by the time-out, and a webhook
 * at its cap here gets no more claimed until one is answered. For a webhook whose receiver answers
 * quickly up to AHEAD more are claimed and wait here for a slot, so a slot is refilled as soon as
 * it frees, and one turn records and claims several. A turn runs as soon as an attempt ends (to
 * record it) and claims every `pollIntervalMs` while nothing more is known to be due, and at once
 * when room frees up for a claim that was cut short by a cap (the webhook's own or the worker's),
 * so a backlog is sent as fast as the receiver answers, not a claim per interval.
 *
 * Per delivery the worker keeps what it can: each webhook's secrets are decrypted once (again
 * after a rotation) into a signer, and each target URL is parsed once; the agents check the
 * target's address whenever they open a connection (a kept-alive one was checked when opened).
 *
 * Why not pg-boss: the deliveries are one table we own, written by the same statement that
 * numbers the events (no second queue to keep in step, nothing to lose between the outbox and a
 * job), and a delivery's log and state are plain rows the API reads.
 */
export class DeliveryWorker {
  /** Requests in flight, in all and per webhook. */
  private sending = 0;
  private readonly inFlight = new Map<number, number>();
  /** Claimed and waiting for a slot of their webhook (claimed ahead), in all and per webhook. */
  private waiting = 0;
  private readonly ready = new Map<number, Array<{ delivery: ClaimedDelivery; sendBy: number }>>();
  /** Webhooks whose last attempt here was answered 2xx within QUICK_MS: claimed ahead for. */
  private readonly quick = new Set<number>();
  /** Attempts answered (or failed) and waiting to be recorded. */
  private readonly unrecorded: Array<{
    record: AttemptRecord;
    resolve: (recorded: Recorded) => void;
    reject: (error: unknown) => void;
  }> = [];
  /** Claimed ahead, never sent, to be given back at the next turn. */
  private readonly released: ReleasedClaim[] = [];
  /** Every attempt until recorded (stop waits for them). */
  private readonly attempts = new Set<Promise<void>>();
  /** Webhooks whose last claim was cut by their cap: more of theirs may be due. */
  private readonly backlogged = new Set<number>();
  /** The last claim was cut by the worker's cap: more may be due. */
  private backlog = false;
  /** When the next claim is due (ms since the epoch); Infinity while a claim runs. */
  private claimAt = 0;
  /** Claims in a row that found due rows with room for them and got none. */
  private contended = 0;
  private claiming = false;
  private readonly agents: { http: http.Agent; https: https.Agent };
  /** Each webhook's secrets, opened once (again after a rotation), ready to sign with. */
  private readonly signers: OpenedSecrets<Webhook>;
  /** Target URLs as parsed. */
  private readonly targets = new Map<string, Target>();
  /**
   * Numbering runs in a row that found nothing since one that numbered events; null once the
   * wait is back at the poll interval (and at start).
   */
  private idleNumbering: number | null = null;
  private readonly numbering = new Loop(() => this.number());
  private readonly turns = new Loop(() => this.turn());
  private lastRetention = 0;

  constructor(
    private readonly db: Db,
    private readonly config: WebhookConfig,
    private readonly log: Logger,
    private readonly observer: DeliveryObserver = { attempted: () => {}, disabled: () => {} },
  ) {
    const options = {
      allowPrivateIPAddress: config.allowPrivateTargets,
      keepAlive: true,
      // An idle connection is closed after this, before common servers' idle time-outs (Node's
      // 5 s) would close it under a request being sent.
      timeout: KEEP_ALIVE_IDLE_MS,
    };
    this.agents = {
      http: new RequestFilteringHttpAgent(options),
      https: new RequestFilteringHttpsAgent(options),
    };
    this.signers = new OpenedSecrets((sealed) => new Webhook(openSecret(config.secretKey, sealed)));
  }

  start(): void {
    this.claiming = true;
    this.claimAt = 0;
    this.numbering.start();
    this.turns.start();
  }

  /**
   * Stops numbering and claiming, waits for the attempts in flight (each ends within the
   * time-out) to be recorded, then stops.
   */
  async stop(): Promise<void> {
    this.claiming = false;
    await this.numbering.stop();
    // Those claimed ahead are sent as slots free up (they are this replica's until their lease
    // ends): the attempts started meanwhile are waited for too.
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
    await this.turns.stop();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * Events were committed here: numbered now, or SEQUENCE_AGAIN_MS after the last numbering run
   * started, so a stream of commits is numbered in batches rather than a run each.
   */
  eventsCommitted(): void {
    this.numbering.runIn(Math.max(0, this.numbering.startedAt + SEQUENCE_AGAIN_MS - Date.now()));
  }

  /** Numbers committed events (queueing their deliveries); deletes old events now and then. */
  private async number(): Promise<number> {
    try {
      const numbered = await sequenceCommittedEvents(this.db);
      await this.keepRetention();
      if (numbered > 0) {
        this.idleNumbering = 0;
        this.claimSoon();
        return Math.min(SEQUENCE_AGAIN_MS, this.config.pollIntervalMs);
      }
      // Orders seldom come alone: soon again after events were numbered, backing off to the
      // poll interval while none come.
      if (this.idleNumbering !== null) {
        const wait = SEQUENCE_AGAIN_MS * 2 ** ++this.idleNumbering;
        if (wait < this.config.pollIntervalMs) return wait;
        this.idleNumbering = null;
      }
    } catch (error) {
      this.log.error({ err: error }, 'webhook event numbering failed');
    }
    return this.config.pollIntervalMs;
  }

  /** A claim at the next turn, and that turn now. */
  private claimSoon(): void {
    this.claimAt = Math.min(this.claimAt, Date.now());
    this.turns.runIn(0);
  }

  /** One turn: records what ended, claims if due and there is room; the wait until the next. */
  private async turn(): Promise<number> {
    const batch = this.unrecorded.splice(0);
    const released = this.released.splice(0);
    const free = CONCURRENCY - this.held();
    let claim: ClaimRequest | null = null;
    const askedAt = Date.now();
    if (this.claiming && free > 0 && askedAt >= this.claimAt) {
      const room = new Map<number, number>();
      let ahead = READY_MAX - this.waiting;
      for (const id of new Set([...this.inFlight.keys(), ...this.ready.keys(), ...this.quick])) {
        const extra = this.quick.has(id) ? Math.max(0, Math.min(AHEAD, ahead)) : 0;
        ahead -= extra;
        room.set(id, Math.max(0, this.inFlightCap(id) + extra - this.heldFor(id)));
      }
      claim = {
        limit: free,
        perWebhook: QUICK_IN_FLIGHT + AHEAD,
        defaultRoom: PER_WEBHOOK,
        leaseMs: this.config.claimLeaseMs,
        room,
      };
      // Asked for again (claimSoon) by what happens meanwhile, else planned below.
      this.claimAt = Infinity;
    }
    if (batch.length > 0 || claim || released.length > 0) {
      try {
        const result = await recordAndClaim(
          this.db,
          batch.map((b) => b.record),
          claim,
          released,
        );
        batch.forEach((b, i) => b.resolve(result.recorded[i]!));
        // Made due at once by a retry asked for during its attempt, or given back unsent.
        if (result.recorded.some((r) => r.dueNow) || released.length > 0) {
          this.claimAt = Date.now();
        }
        if (claim && result.claim) this.claimed(claim, result.claim, askedAt);
      } catch (error) {
        for (const b of batch) b.reject(error);
        this.log.error({ err: error }, 'webhook delivery turn failed');
      }
      if (claim && this.claimAt === Infinity) {
        this.claimAt = Date.now() + this.config.pollIntervalMs;
      }
    }
    if (this.unrecorded.length > 0 || this.released.length > 0) return this.recordWait();
    // No room (or stopping): an attempt that ends asks for the next turn.
    if (!this.claiming || this.held() >= CONCURRENCY) return this.config.pollIntervalMs;
    return Math.max(0, Math.min(this.claimAt - Date.now(), this.config.pollIntervalMs));
  }

  /** Starts what was claimed; notes what may be left due, and when to claim next. */
  private claimed(request: ClaimRequest, claim: Claim, askedAt: number): void {
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
    const sendBy =
      askedAt +
      Math.min(
        AHEAD_WAIT_MAX_MS,
        Math.max(0, this.config.claimLeaseMs - this.config.timeoutMs - LEASE_MARGIN_MS),
      );
    const webhooks = new Set<number>();
    for (const delivery of claim.deliveries) {
      const queue = this.ready.get(delivery.webhookId) ?? [];
      queue.push({ delivery, sendBy });
      this.ready.set(delivery.webhookId, queue);
      this.waiting++;
      webhooks.add(delivery.webhookId);
    }
    // Sent at once up to each webhook's cap; the rest as its answers free slots.
    for (const id of webhooks) this.pump(id, true);
    // More was due than was claimed, with room left for it: attempts that ended meanwhile, or
    // rows another worker was claiming (skipped; again soon, backing off while that lasts).
    if (this.hasRoomForBacklog()) {
      const wait =
        claim.deliveries.length > 0
          ? 0
          : Math.min(CONTENDED_RETRY_MS * 2 ** this.contended++, this.config.pollIntervalMs);
      if (claim.deliveries.length > 0) this.contended = 0;
      this.claimAt = Math.min(this.claimAt, Date.now() + wait);
    } else {
      this.contended = 0;
    }
  }

  /** How soon a turn should record the attempts that ended (see RECORD_WITHIN_MS). */
  private recordWait(): number {
    return this.waiting > 0 && this.claiming ? RECORD_WITHIN_MS : 0;
  }

  /** Attempts claimed and not yet recorded: waiting, in flight, answered. */
  private held(): number {
    return this.waiting + this.sending + this.unrecorded.length;
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

  /**
   * Sends a webhook's waiting deliveries while it has fewer than its cap in flight. One
   * claimed ahead whose claim no longer covers an attempt is given back unsent (`fresh`: just
   * claimed).
   */
  private pump(id: number, fresh = false): void {
    const queue = this.ready.get(id);
    while (queue && queue.length > 0 && (this.inFlight.get(id) ?? 0) < this.inFlightCap(id)) {
      const { delivery, sendBy } = queue.shift()!;
      this.waiting--;
      if (!fresh && Date.now() > sendBy) {
        this.log.info(
          { delivery: delivery.id, attempt: delivery.attempts },
          'webhook delivery claimed ahead given back unsent: it waited too long for a slot',
        );
        this.released.push({ id: delivery.id, attempts: delivery.attempts });
        this.turns.runIn(this.recordWait());
        continue;
      }
      this.track(delivery);
    }
    if (queue && queue.length === 0) this.ready.delete(id);
  }

  /** Sends a claimed delivery; its webhook's slot is free again once the exchange has ended. */
  private track(delivery: ClaimedDelivery): void {
    const id = delivery.webhookId;
    this.sending++;
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    const answered = () => {
      this.sending--;
      const left = (this.inFlight.get(id) ?? 1) - 1;
      if (left > 0) this.inFlight.set(id, left);
      else this.inFlight.delete(id);
      this.pump(id);
      // Room for more of a backlog: claim it at the turn that records this attempt.
      if (this.claiming && this.hasRoomForBacklog(id)) {
        this.claimAt = Math.min(this.claimAt, Date.now());
      }
    };
    const attempt = this.attempt(delivery, answered)
      .catch((error: unknown) => {
        // Left claimed: it is due again when its lease ends.
        this.log.error({ err: error, delivery: delivery.id }, 'webhook delivery failed to record');
      })
      .finally(() => this.attempts.delete(attempt));
    this.attempts.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery, answered: () => void): Promise<void> {
    const at = new Date();
    const started = performance.now();
    const outcome = await this.send(delivery, at).catch((error: unknown) => ({
      statusCode: null,
      error: error instanceof Error ? error.message : String(error),
    }));
    const durationMs = Math.round(performance.now() - started);
    const delivered =
      outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    if (delivered && durationMs <= QUICK_MS) this.quick.add(delivery.webhookId);
    else this.quick.delete(delivery.webhookId);
    answered();
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
      this.unrecorded.push({ record: { delivery, result }, resolve, reject });
      this.turns.runIn(this.recordWait());
    });
  }

  private async send(delivery: ClaimedDelivery, at: Date) {
    const target = this.target(delivery.url);
    if (!target.https && !this.config.allowHttp) {
      return { statusCode: null, error: 'http targets are not allowed (WEBHOOK_ALLOW_HTTP)' };
    }
    const signers = [this.signers.get(delivery.webhookId, 'current', delivery.secret)];
    if (
      delivery.previousSecret &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil > at
    ) {
      signers.push(this.signers.get(delivery.webhookId, 'previous', delivery.previousSecret));
    }
    return post(target, signedHeaders(delivery, signers, at), delivery.payload, {
      timeoutMs: this.config.timeoutMs,
      agents: this.agents,
    });
  }

  /**
   * The URL as `post` needs it, parsed once. Only the URL's parts are kept: its host is resolved
   * and checked by the agent whenever it opens a connection.
   */
  private target(url: string): Target {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new Error(`unsupported protocol ${parsed.protocol}`);
      }
      target = {
        https: parsed.protocol === 'https:',
        options: {
          protocol: parsed.protocol,
          hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: parsed.port || undefined,
          path: `${parsed.pathname}${parsed.search}`,
        },
      };
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  private async keepRetention(): Promise<void> {
    if (Date.now() - this.lastRetention < RETENTION_EVERY_MS) return;
    this.lastRetention = Date.now();
    const before = new Date(Date.now() - this.config.eventRetentionDays * 24 * 60 * 60_000);
    await deleteEventsBefore(this.db, before);
  }
}
