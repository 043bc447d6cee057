import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { deleteEventsBefore } from '../events/repository.js';
import { sequenceCommittedEvents } from '../events/service.js';
import {
  claimDueDeliveries,
  disableFailingWebhook,
  recordAttempt,
  type AttemptResult,
  type ClaimedDelivery,
} from './repository.js';
import { openSecret } from './secrets.js';

/** At most this much of an answer is read; the rest is not waited for. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Attempts one worker runs at once, and at most per webhook (so one slow receiver holds few). */
const CONCURRENCY = 32;
const PER_WEBHOOK = 4;
/** How often old events are deleted. */
const RETENTION_EVERY_MS = 60 * 60_000;

interface Logger {
  error: (obj: object, msg: string) => void;
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
  secrets: string[],
  now: Date,
): Record<string, string> {
  const signatures = secrets.map((secret) =>
    new Webhook(secret).sign(delivery.eventId, now, delivery.payload),
  );
  return {
    'content-type': 'application/json',
    'user-agent': 'dogshop-webhooks/1',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

/**
 * POSTs `body` once: no redirect followed (a 3xx is a failure), at most `timeoutMs` for the whole
 * exchange, at most 64 kB of the answer read. The agents resolve the host, refuse non-public
 * addresses (unless allowed) and connect to the address they checked.
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; agents: { http: http.Agent; https: https.Agent } },
): Promise<{ statusCode: number | null; error: string | null }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ statusCode, error });
    };
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: target.protocol === 'https:' ? options.agents.https : options.agents.http,
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
      response.on('end', () => finish(response.statusCode ?? null, null));
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
 * Each replica's delivery worker. Every poll it numbers newly committed events (which queues
 * their deliveries), then claims due deliveries up to its free capacity and sends each on its
 * own, so a slow or dead receiver delays only its own deliveries: every attempt is bounded by
 * the time-out, and a webhook with PER_WEBHOOK attempts in flight here gets no more claimed
 * until one ends. Why not pg-boss: the deliveries are one table we own, written by the same
 * statement that numbers the events (no second queue to keep in step, nothing to lose between
 * the outbox and a job), and a delivery's log and state are plain rows the API reads.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<number, number>();
  private readonly attempts = new Set<Promise<void>>();
  private readonly agents: { http: http.Agent; https: https.Agent };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private lastRetention = 0;

  constructor(
    private readonly db: Db,
    private readonly config: WebhookConfig,
    private readonly log: Logger,
    private readonly observer: DeliveryObserver = { attempted: () => {}, disabled: () => {} },
  ) {
    const filter = { allowPrivateIPAddress: config.allowPrivateTargets };
    this.agents = {
      http: new RequestFilteringHttpAgent(filter),
      https: new RequestFilteringHttpsAgent(filter),
    };
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the attempts in flight (each ends within the time-out). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.allSettled([...this.attempts]);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.poll().finally(() => {
        this.running = undefined;
        this.schedule(this.config.pollIntervalMs);
      });
    }, delayMs);
  }

  private async poll(): Promise<void> {
    try {
      await sequenceCommittedEvents(this.db);
      await this.keepRetention();
      const free = CONCURRENCY - this.attempts.size;
      if (this.stopped || free <= 0) return;
      const busy = [...this.inFlight].filter(([, n]) => n >= PER_WEBHOOK).map(([id]) => id);
      const claimed = await claimDueDeliveries(this.db, {
        limit: free,
        perWebhook: PER_WEBHOOK,
        leaseMs: this.config.claimLeaseMs,
        busy,
      });
      for (const delivery of claimed) this.track(delivery);
    } catch (error) {
      this.log.error({ err: error }, 'webhook delivery poll failed');
    }
  }

  private track(delivery: ClaimedDelivery): void {
    const id = delivery.webhookId;
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    const attempt = this.attempt(delivery)
      .catch((error: unknown) => {
        // Left claimed: it is due again when its lease ends.
        this.log.error({ err: error, delivery: delivery.id }, 'webhook delivery failed to record');
      })
      .finally(() => {
        this.attempts.delete(attempt);
        const left = (this.inFlight.get(id) ?? 1) - 1;
        if (left > 0) this.inFlight.set(id, left);
        else this.inFlight.delete(id);
      });
    this.attempts.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = new Date();
    const started = performance.now();
    const outcome = await this.send(delivery, at).catch((error: unknown) => ({
      statusCode: null,
      error: error instanceof Error ? error.message : String(error),
    }));
    const durationMs = Math.round(performance.now() - started);
    const delivered =
      outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const result: AttemptResult = {
      at,
      ...outcome,
      durationMs,
      delivered,
      retryAt: delivered
        ? null
        : new Date(Date.now() + retryDelayMs(this.config.retryScheduleMs, delivery.attempts)),
    };
    const failingSince = await recordAttempt(this.db, delivery.id, result);
    this.observer.attempted(delivered ? 'delivered' : 'failed');
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

  private async send(delivery: ClaimedDelivery, at: Date) {
    if (new URL(delivery.url).protocol === 'http:' && !this.config.allowHttp) {
      return { statusCode: null, error: 'http targets are not allowed (WEBHOOK_ALLOW_HTTP)' };
    }
    const secrets = [openSecret(this.config.secretKey, delivery.secret)];
    if (
      delivery.previousSecret &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil > at
    ) {
      secrets.push(openSecret(this.config.secretKey, delivery.previousSecret));
    }
    return post(delivery.url, signedHeaders(delivery, secrets, at), delivery.payload, {
      timeoutMs: this.config.timeoutMs,
      agents: this.agents,
    });
  }

  private async keepRetention(): Promise<void> {
    if (Date.now() - this.lastRetention < RETENTION_EVERY_MS) return;
    this.lastRetention = Date.now();
    const before = new Date(Date.now() - this.config.eventRetentionDays * 24 * 60 * 60_000);
    await deleteEventsBefore(this.db, before);
  }
}
