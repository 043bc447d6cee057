// W1: what outgoing webhooks cost and how fast they arrive. The shop runs as in production (its
// delivery worker on, the default timings) with http to loopback allowed, and one subscription
// (`*`) points at a receiver in the harness process (infra/webhook-receiver.ts) that checks every
// signature. Three figures:
//
// 1. B4's orders (3 items, 16 connections) with the subscription ÷ the same with none, in
//    interleaved rounds. Each subscribed round has a fresh subscription, deleted right after its
//    load (with what is still queued), so both sides start on a quiet shop.
// 2. Commit-to-delivery latency: each event's `timestamp` (taken by the shop just before the
//    transaction that writes the order and its event) to the receiver's arrival, p50/p99, in one
//    more load like side A's that then waits until every event queued for it has arrived
//    (BENCH_W1_DRAIN at most); and again at a fixed rate below the worker's ceiling
//    (BENCH_W1_STEADY_RATE).
// 3. Catch-up: the receiver refuses connections for BENCH_W1_OUTAGE while orders continue at
//    BENCH_W1_OUTAGE_RATE, then is back. The retry schedule (5 s, 5 min …) would make most of the
//    backlog due minutes later; the run makes it due at once through the API, as an integrator
//    back from an outage would (`PATCH /webhooks/{id} {enabled: true}` sends what is pending), and
//    measures events per second from then until the backlog is empty.
import pg from 'pg';
import type { Context } from '../context.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import { runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import type { RunningService } from '../infra/services.js';
import { quantile, WebhookReceiver } from '../infra/webhook-receiver.js';
import {
  meets,
  type Comparison,
  type Target,
  type WebhookCatchUp,
  type WebhookLatency,
  type WebhookRun,
} from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';
import { DB_CONNECTIONS, loadSequence } from './shop-routes.js';
import { shopHeaders } from './shop-sql.js';

export const W1_CONNECTIONS = DB_CONNECTIONS[0]!;
/** Connections of the fixed-rate loads (the steady latency run and the outage). */
const RATE_CONNECTIONS = 4;
const TARGET: Target = { op: '>=', value: 0.9 };
const LATENCY_TARGET_MS = 1_000;

/** The shop's environment for W1: http to a receiver on loopback allowed (never in production). */
export const W1_SHOP_ENV = {
  WEBHOOK_DELIVERY: 'true',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

export async function shopApi<T>(
  shop: RunningService,
  method: string,
  path: string,
  body?: unknown,
) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await fetch(`${shop.url}${path}`, {
    method,
    headers: shopHeaders(text),
    body: text,
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? (undefined as T) : ((await res.json()) as { data: T }).data;
}

interface Progress {
  queued: number;
  delivered: number;
  /** Committed events the worker has not numbered yet (their deliveries are not queued yet). */
  unsequenced: boolean;
}

/** One connection of its own for watching the deliveries (not the pool the shop uses). */
export class DeliveryWatch {
  constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<DeliveryWatch> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new DeliveryWatch(client);
  }

  async progress(webhookId: number): Promise<Progress> {
    const { rows } = await this.client.query<{ queued: number; delivered: number; u: boolean }>(
      `SELECT count(*)::int AS queued,
              count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              EXISTS (SELECT FROM events WHERE sequence IS NULL) AS u
         FROM webhook_deliveries WHERE webhook_id = $1`,
      [webhookId],
    );
    return { queued: rows[0]!.queued, delivered: rows[0]!.delivered, unsequenced: rows[0]!.u };
  }

  /** When the undelivered events were written (epoch ms), for lower bounds of their latency. */
  async undeliveredSince(webhookId: number): Promise<number[]> {
    const { rows } = await this.client.query<{ at: number }>(
      `SELECT (extract(epoch FROM e.occurred_at) * 1000)::float8 AS at
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id = $1 AND d.status <> 'delivered'`,
      [webhookId],
    );
    return rows.map((r) => r.at);
  }

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.client.query<T>(sql, params)).rows;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

/** Waits until every event is numbered and each queued delivery delivered, or `seconds` pass. */
export async function drain(
  watch: DeliveryWatch,
  webhookId: number,
  seconds: number,
): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const p = await watch.progress(webhookId);
    if (!p.unsequenced && p.delivered === p.queued) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface RoundLatency {
  events: number;
  /** Events ÷ (the load's seconds + drainSeconds). */
  deliveriesPerSecond: number;
  undelivered: number;
  p50: number;
  p99: number;
  max: number;
  drainSeconds: number;
}

/** The round's latencies: what arrived, plus how long the undelivered had waited so far. */
async function roundLatency(
  receiver: WebhookReceiver,
  watch: DeliveryWatch,
  webhookId: number,
  loadEndedAt: number,
  loadSeconds: number,
): Promise<RoundLatency> {
  const now = Date.now();
  const waiting = (await watch.undeliveredSince(webhookId)).map((at) => now - at);
  const latencies = [...receiver.latencies(), ...waiting].sort((a, b) => a - b);
  const lastArrival = Math.max(...[...receiver.delivered.values()].map((d) => d.arrivedAt));
  const events = (await watch.progress(webhookId)).queued;
  const drainSeconds = ((waiting.length > 0 ? now : lastArrival) - loadEndedAt) / 1000;
  return {
    events,
    deliveriesPerSecond: (events - waiting.length) / (loadSeconds + drainSeconds),
    undelivered: waiting.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    drainSeconds,
  };
}

function latencyRow(
  label: string,
  runs: Array<{ rps: number; latency: RoundLatency }>,
): WebhookLatency {
  return {
    label,
    ordersPerSecond: figure(runs.map((r) => r.rps)),
    events: figure(runs.map((r) => r.latency.events)).median,
    p50Ms: figure(runs.map((r) => r.latency.p50)),
    p99Ms: figure(runs.map((r) => r.latency.p99)),
    maxMs: figure(runs.map((r) => r.latency.max)),
    drainSeconds: figure(runs.map((r) => r.latency.drainSeconds)),
    deliveriesPerSecond: figure(runs.map((r) => r.latency.deliveriesPerSecond)),
    undelivered: runs.reduce((sum, r) => sum + r.latency.undelivered, 0),
  };
}

export async function webhookBench(
  ctx: Context,
  shop: RunningService,
  databaseUrl: string,
  orderVariants: HttpRequestSpec[],
): Promise<{ comparison: Comparison; webhooks: WebhookRun }> {
  const { options } = ctx;
  const seconds = options.durationSeconds;
  const drainLimit = options.webhook.drainSeconds;
  const receiver = new WebhookReceiver();
  await receiver.listen(0);
  const watch = await DeliveryWatch.open(databaseUrl);
  let duplicates = 0;
  let badSignatures = 0;
  const subscribe = async () => {
    // The previous load's last events numbered first: an event numbered after the subscription
    // exists is queued for it even if its order came before, which would count it here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let i = 0; i < 50 && (await watch.progress(0)).unsequenced; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const hook = await shopApi<{ id: number; secret: string }>(shop, 'POST', '/webhooks', {
      url: receiver.url,
      events: ['*'],
      description: 'bench W1 receiver',
    });
    receiver.reset(hook.secret);
    return hook;
  };
  const unsubscribe = async (id: number) => {
    duplicates += receiver.duplicates;
    badSignatures += receiver.badSignatures;
    await shopApi(shop, 'DELETE', `/webhooks/${id}`);
  };
  const sequence = loadSequence(orderVariants, 11).map((r) => ({
    ...r,
    headers: { ...shopHeaders(r.body), ...r.headers },
  }));
  const targets = { service: shop.process.pid, postmaster: ctx.pg.postmasterPid() };
  const orders = (opts: { connections: number; duration: number; overallRate?: number }) =>
    runLoad({ url: shop.url, requests: sequence, ...opts });

  try {
    // 1: interleaved rounds, subscribed and not, side by side. A subscribed round's deliveries go
    // on after its load; its subscription is deleted at once (dropping what is still queued), so
    // that the next side runs on a quiet shop like this one did.
    const runs = await interleave(
      options.rounds,
      {
        subscribed: async () => {
          const hook = await subscribe();
          const load = await withCpu(targets, () =>
            orders({ connections: W1_CONNECTIONS, duration: seconds }),
          );
          await unsubscribe(hook.id);
          return load;
        },
        none: () =>
          withCpu(targets, () => orders({ connections: W1_CONNECTIONS, duration: seconds })),
      },
      ctx.log,
    );

    // 2: the latency of one more such load, waiting until its events have arrived; then at a
    // fixed rate the worker keeps up with.
    const latencyRun = async (label: string, rate?: number) => {
      ctx.log(`  W1 latency ${label}`);
      const hook = await subscribe();
      const load = await orders(
        rate === undefined
          ? { connections: W1_CONNECTIONS, duration: seconds }
          : { connections: RATE_CONNECTIONS, duration: seconds, overallRate: rate },
      );
      const loadEndedAt = Date.now();
      await drain(watch, hook.id, drainLimit);
      const delivery = await roundLatency(receiver, watch, hook.id, loadEndedAt, load.seconds);
      ctx.log(
        `    ${load.rps.toFixed(1)} orders/s, ${delivery.events} events, delivery p50 ${delivery.p50.toFixed(0)} ms, p99 ${delivery.p99.toFixed(0)} ms, the last ${delivery.drainSeconds.toFixed(1)} s after the load${delivery.undelivered ? `, ${delivery.undelivered} not delivered within ${drainLimit} s` : ''}`,
      );
      await unsubscribe(hook.id);
      return { load, delivery };
    };
    const steadyRate = options.webhook.steadyRate;
    const atRate = await latencyRun(`at side A's rate (${W1_CONNECTIONS} connections)`);
    const steady = await latencyRun(`at ${steadyRate} orders/s`, steadyRate);

    // 3: the outage, and the catch-up.
    const catchUp = await outageRun(ctx, { receiver, watch, shop, subscribe, orders });
    await unsubscribe(catchUp.webhookId);

    const withHook = runs.subscribed;
    const without = runs.none;
    const ratio = ratioFigure(
      withHook.map((r) => r.rps),
      without.map((r) => r.rps),
    );
    const failures = [
      ...withHook.map((r) => ['subscribed', r] as const),
      ...without.map((r) => ['none', r] as const),
      ["latency at A's rate", atRate.load] as const,
      ['steady', steady.load] as const,
      ['outage', catchUp.load] as const,
    ]
      .filter(([, r]) => r.non2xx + r.errors + r.timeouts > 0)
      .map(([side, r]) => `${side}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
    const latency = [
      latencyRow(
        `at side A's rate (${W1_CONNECTIONS} connections, as fast as orders are answered)`,
        [{ rps: atRate.load.rps, latency: atRate.delivery }],
      ),
      latencyRow(`at ${steadyRate} orders/s (${RATE_CONNECTIONS} connections)`, [
        { rps: steady.load.rps, latency: steady.delivery },
      ]),
    ];
    const webhooks: WebhookRun = {
      latency,
      targetP99Ms: LATENCY_TARGET_MS,
      pass: latency[0]!.undelivered === 0 && latency[0]!.p99Ms.median <= LATENCY_TARGET_MS,
      catchUp: catchUp.result,
      duplicates,
      badSignatures,
    };
    const comparison: Comparison = {
      id: 'W1',
      title: 'Orders with one subscribed webhook receiver ÷ with none',
      a: {
        label: `POST /orders (3 items), ${W1_CONNECTIONS} connections, one subscription (*) to a receiver on loopback`,
        unit: 'req/s',
        figure: figure(withHook.map((r) => r.rps)),
      },
      b: {
        label: `the same orders with no subscription (events are still written and numbered)`,
        unit: 'req/s',
        figure: figure(without.map((r) => r.rps)),
      },
      ratio,
      target: TARGET,
      pass: meets(ratio.median, TARGET) && failures.length === 0 && badSignatures === 0,
      latency: [
        {
          label: 'POST /orders, subscribed',
          connections: W1_CONNECTIONS,
          rps: figure(withHook.map((r) => r.rps)),
          p50: figure(withHook.map((r) => r.latency.p50)),
          p99: figure(withHook.map((r) => r.latency.p99)),
        },
        {
          label: 'POST /orders, no subscription',
          connections: W1_CONNECTIONS,
          rps: figure(without.map((r) => r.rps)),
          p50: figure(without.map((r) => r.latency.p50)),
          p99: figure(without.map((r) => r.latency.p99)),
        },
      ],
      cpu: [
        cpuRow('subscribed', withHook, (r: LoadResult) => r.rps),
        cpuRow('no subscription', without, (r: LoadResult) => r.rps),
      ],
      notes: [
        `The shop runs its delivery worker with the production timings and WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_TARGETS set (the receiver is http on 127.0.0.1); the receiver verifies every signature (HMAC-SHA256, node:crypto) and answers 200 at once. Bad signatures: ${badSignatures}; requests for an event already delivered: ${duplicates}.`,
        `Each subscribed round has a fresh subscription, deleted right after its load (with what is still queued): A's figure is what placing orders costs while the worker queues and delivers beside it; the latency is measured in a separate load of the same kind that waits for its deliveries (see W1 latency).`,
        ...failures.map((f) => `non-2xx or failed: ${f}`),
      ],
    };
    return { comparison, webhooks };
  } finally {
    await receiver.close();
    await watch.close();
  }
}

async function outageRun(
  ctx: Context,
  deps: {
    receiver: WebhookReceiver;
    watch: DeliveryWatch;
    shop: RunningService;
    subscribe: () => Promise<{ id: number; secret: string }>;
    orders: (opts: {
      connections: number;
      duration: number;
      overallRate?: number;
    }) => Promise<LoadResult>;
  },
): Promise<{ result: WebhookCatchUp; load: LoadResult; webhookId: number }> {
  const { receiver, watch, shop } = deps;
  const { outageSeconds, outageRate, drainSeconds } = ctx.options.webhook;
  ctx.log(
    `  W1 catch-up: receiver down for ${outageSeconds} s, orders at ${outageRate}/s meanwhile`,
  );
  const hook = await deps.subscribe();
  await receiver.close();
  const load = await deps.orders({
    connections: RATE_CONNECTIONS,
    duration: outageSeconds,
    overallRate: outageRate,
  });
  await receiver.listen(); // the same port
  // Every event of the outage numbered (its delivery queued) before looking at the backlog.
  for (let i = 0; i < 100 && (await watch.progress(hook.id)).unsequenced; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [state] = await watch.query<{
    queued: number;
    never: number;
    soon: number;
    later: number;
    last: number | null;
    failed: number;
  }>(
    `SELECT count(*)::int AS queued,
            count(*) FILTER (WHERE status = 'pending' AND attempts = 0)::int AS never,
            count(*) FILTER (WHERE status = 'pending' AND attempts > 0
                               AND next_attempt_at <= now() + interval '10 seconds')::int AS soon,
            count(*) FILTER (WHERE status = 'pending' AND attempts > 0
                               AND next_attempt_at > now() + interval '10 seconds')::int AS later,
            extract(epoch FROM max(next_attempt_at) FILTER (WHERE status = 'pending') - now())::float8
              AS last,
            (SELECT count(*)::int FROM delivery_attempts a JOIN webhook_deliveries d2
                ON d2.id = a.delivery_id WHERE d2.webhook_id = $1 AND a.status_code IS NULL) AS failed
       FROM webhook_deliveries WHERE webhook_id = $1`,
    [hook.id],
  );
  // The integrator is back: pending deliveries become due now.
  const pendingBefore = (await watch.progress(hook.id)).queued - receiver.delivered.size;
  const madeDueAt = performance.timeOrigin + performance.now();
  await shopApi(shop, 'PATCH', `/webhooks/${hook.id}`, { enabled: true });
  const drained = await drain(watch, hook.id, drainSeconds);
  const arrivals = [...receiver.delivered.values()]
    .map((d) => d.arrivedAt)
    .filter((at) => at >= madeDueAt)
    .sort((a, b) => a - b);
  const undelivered = drained ? 0 : (await watch.undeliveredSince(hook.id)).length;
  const last = arrivals.at(-1) ?? madeDueAt;
  const seconds = (last - madeDueAt) / 1000;
  const p10 = quantile(arrivals, 0.1);
  const p90 = quantile(arrivals, 0.9);
  const steadyCount = arrivals.filter((a) => a >= p10 && a <= p90).length;
  const result: WebhookCatchUp = {
    outageSeconds,
    ordersPerSecond: load.rps,
    events: state!.queued,
    failedAttempts: state!.failed,
    neverAttempted: state!.never,
    dueWithin10s: state!.soon,
    dueLater: state!.later,
    lastDueInSeconds: state!.last ?? 0,
    madeDueBy: 'PATCH /webhooks/{id} {"enabled": true} (sends what is pending)',
    backlog: pendingBefore,
    seconds,
    eventsPerSecond: seconds > 0 ? arrivals.length / seconds : NaN,
    steadyEventsPerSecond: p90 > p10 ? ((steadyCount - 1) * 1000) / (p90 - p10) : NaN,
    firstArrivalMs: arrivals.length ? arrivals[0]! - madeDueAt : NaN,
    undelivered,
  };
  ctx.log(
    `    ${result.backlog} pending when back (${result.neverAttempted} never attempted, ${result.dueWithin10s} due within 10 s, ${result.dueLater} due later, the last in ${result.lastDueInSeconds.toFixed(0)} s); made due: ${arrivals.length} delivered in ${seconds.toFixed(1)} s = ${result.eventsPerSecond.toFixed(1)} events/s`,
  );
  return { result, load, webhookId: hook.id };
}
