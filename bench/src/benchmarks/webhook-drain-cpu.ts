// W-cpu: what one delivered event costs the shop in CPU, with no orders running. Each round
// builds a backlog (the receiver refuses connections while B4's orders are placed, and their
// deliveries fail into the 5-minute retry), then the receiver listens again, the backlog is made
// due with `PATCH /webhooks/{id} {"enabled": true}` (as W1's catch-up does), and the CPU the shop
// process, PostgreSQL and the harness (the receiver) spent from then until the last delivery
// arrived is read from /proc and divided by the deliveries.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { cpuSnapshot, cpuUse, type CpuUse } from '../infra/cpu.js';
import { runLoad, type HttpRequestSpec } from '../infra/load.js';
import type { RunningService } from '../infra/services.js';
import { WebhookReceiver } from '../infra/webhook-receiver.js';
import { meets, type Comparison, type Target } from '../results.js';
import { figure } from '../stats.js';
import { loadSequence } from './shop-routes.js';
import { shopHeaders } from './shop-sql.js';
import { DeliveryWatch, drain, shopApi, W1_CONNECTIONS } from './webhook-benchmarks.js';

const TARGET: Target = { op: '<=', value: 0.3 };
/** Orders placed into each round's backlog (about 1.1 events each). */
const BACKLOG_ORDERS = 2_700;

interface DrainRound {
  delivered: number;
  cpu: CpuUse;
  /** Milliseconds of CPU per delivered event. */
  shopMs: number;
  postgresMs: number;
  receiverMs: number;
  eventsPerSecond: number;
  /** The drain's bounds on the monotonic clock (µs), to cut a --cpu-prof profile to it. */
  window: [number, number];
}

/** Waits until every event is numbered and no delivery is claimed or due within a minute. */
async function settle(watch: DeliveryWatch, webhookId: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const [row] = await watch.query<{ busy: number; u: boolean }>(
      `SELECT count(*) FILTER (WHERE status = 'pending'
                                 AND (next_attempt_at <= now() + interval '60 seconds'
                                      OR claimed_until > now()))::int AS busy,
              EXISTS (SELECT FROM events WHERE sequence IS NULL) AS u
         FROM webhook_deliveries WHERE webhook_id = $1`,
      [webhookId],
    );
    if (!row!.u && row!.busy === 0) return;
    if (Date.now() > deadline) throw new Error(`W-cpu: the backlog did not settle (${row!.busy})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function drainRound(
  ctx: Context,
  deps: {
    shop: RunningService;
    receiver: WebhookReceiver;
    watch: DeliveryWatch;
    requests: HttpRequestSpec[];
  },
): Promise<DrainRound> {
  const { shop, receiver, watch } = deps;
  const targets = { service: shop.process.pid, postmaster: ctx.pg.postmasterPid() };
  await new Promise((resolve) => setTimeout(resolve, 300));
  const hook = await shopApi<{ id: number; secret: string }>(shop, 'POST', '/webhooks', {
    url: receiver.url,
    events: ['*'],
    description: 'bench W-cpu receiver',
  });
  receiver.reset(hook.secret);
  try {
    await receiver.close();
    await runLoad({
      url: shop.url,
      requests: deps.requests,
      connections: W1_CONNECTIONS,
      amount: BACKLOG_ORDERS,
    });
    await settle(watch, hook.id);
    await receiver.listen();
    const start = monotonicUs();
    const before = cpuSnapshot(targets);
    await shopApi(shop, 'PATCH', `/webhooks/${hook.id}`, { enabled: true });
    const drained = await drain(watch, hook.id, ctx.options.webhook.drainSeconds);
    const after = cpuSnapshot(targets);
    const end = monotonicUs();
    if (!drained) throw new Error('W-cpu: the backlog did not drain in time');
    const delivered = receiver.delivered.size;
    const cpu = cpuUse(before, after);
    const perEvent = (cores: number) => (cores * cpu.seconds * 1000) / delivered;
    const round: DrainRound = {
      delivered,
      cpu,
      shopMs: perEvent(cpu.service),
      postgresMs: perEvent(cpu.database),
      receiverMs: perEvent(cpu.loadGenerator),
      eventsPerSecond: delivered / cpu.seconds,
      window: [start, end],
    };
    ctx.log(
      `    W-cpu: ${delivered} delivered in ${cpu.seconds.toFixed(2)} s (${round.eventsPerSecond.toFixed(0)}/s): shop ${round.shopMs.toFixed(3)} ms, PostgreSQL ${round.postgresMs.toFixed(3)} ms, receiver ${round.receiverMs.toFixed(3)} ms per event; bad signatures ${receiver.badSignatures}`,
    );
    if (receiver.badSignatures > 0) throw new Error('W-cpu: bad signatures');
    return round;
  } finally {
    await shopApi(shop, 'DELETE', `/webhooks/${hook.id}`);
  }
}

/**
 * The drain figure: rounds of backlog and drain (the first a warm-up, dropped). With
 * `profileDir` (the shop runs with --cpu-prof there) the kept drains' windows are written beside
 * the profile (drain-windows.json), for summarizeDrainProfile.
 */
export async function drainCpuBench(
  ctx: Context,
  shop: RunningService,
  databaseUrl: string,
  orderVariants: HttpRequestSpec[],
  profileDir?: string,
): Promise<Comparison> {
  const receiver = new WebhookReceiver();
  await receiver.listen(0);
  const watch = await DeliveryWatch.open(databaseUrl);
  try {
    const requests = loadSequence(orderVariants, 11).map((r) => ({
      ...r,
      headers: { ...shopHeaders(r.body), ...r.headers },
    }));
    const rounds: DrainRound[] = [];
    for (let i = 0; i < ctx.options.rounds; i++) {
      ctx.log(`  W-cpu round ${i + 1}/${ctx.options.rounds}: backlog of ${BACKLOG_ORDERS} orders`);
      rounds.push(await drainRound(ctx, { shop, receiver, watch, requests }));
    }
    const kept = rounds.slice(1);
    if (profileDir) {
      writeFileSync(
        path.join(profileDir, 'drain-windows.json'),
        JSON.stringify(kept.map((r) => r.window)),
      );
    }
    const shopMs = figure(kept.map((r) => r.shopMs));
    const postgresMs = figure(kept.map((r) => r.postgresMs));
    return {
      id: 'W-cpu',
      title: "Shop CPU per delivered event while a backlog drains (no orders), in ms (the 'ratio')",
      a: { label: 'shop process CPU per delivered event', unit: 'ms', figure: shopMs },
      b: { label: 'PostgreSQL CPU per delivered event', unit: 'ms', figure: postgresMs },
      ratio: shopMs,
      target: TARGET,
      pass: meets(shopMs.median, TARGET),
      alsoRatios: [
        {
          label: 'receiver (the harness process) CPU per delivered event, ms',
          ratio: figure(kept.map((r) => r.receiverMs)),
        },
        { label: 'drain rate, events/s', ratio: figure(kept.map((r) => r.eventsPerSecond)) },
        { label: 'events per round', ratio: figure(kept.map((r) => r.delivered)) },
        {
          label: 'machine busy during the drain, cores',
          ratio: figure(kept.map((r) => r.cpu.machine)),
        },
      ],
      notes: [
        `Each round: a fresh subscription (*) to the receiver, which then refuses connections while ${BACKLOG_ORDERS} of B4's orders are placed at ${W1_CONNECTIONS} connections; once every delivery has failed into its 5-minute retry, the receiver listens again, PATCH /webhooks/{id} {"enabled": true} makes the backlog due, and CPU (utime+stime from /proc) of the shop process, PostgreSQL (postmaster and backends) and the harness (the receiver, verifying every signature) is read from then until the last delivery arrived, ÷ the deliveries. Rounds: ${ctx.options.rounds}, the first dropped.`,
      ],
    };
  } finally {
    await receiver.close();
    await watch.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Which package a profile frame's URL belongs to (as profile.ts names them). */
function packageOf(url: string, functionName: string): string {
  return (
    url.match(/node_modules\/\.pnpm\/([^/]+)\//)?.[1] ??
    (url.includes('/services/') || url.includes('/packages/')
      ? (url.match(/\/(services|packages)\/(.+?)\.[jt]s$/)?.[2] ?? 'workspace')
      : url.startsWith('node:')
        ? `node core ${url.slice(5).split('/')[0]}`
        : url === ''
          ? `(${functionName || 'native'})`
          : url)
  );
}

/**
 * The shop's --cpu-prof profile in `dir`, cut to the drains' windows: busy samples (not idle) by
 * package (workspace files by module) and by function, in percent, and busy ms per window.
 */
export function summarizeDrainProfile(dir: string, top = 30): string[] {
  const windows = JSON.parse(readFileSync(path.join(dir, 'drain-windows.json'), 'utf8')) as Array<
    [number, number]
  >;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return [`no .cpuprofile in ${dir}`];
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<number, number>();
  let at = profile.startTime;
  let busyUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (!windows.some(([from, to]) => at >= from && at <= to)) continue;
    const id = profile.samples[i]!;
    if (nodes.get(id)?.callFrame.functionName === '(idle)') continue;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    busyUs += profile.timeDeltas[i + 1] ?? 0;
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, n] of counts) {
    const { url, functionName } = nodes.get(id)!.callFrame;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n);
    const key = `${functionName || '(anonymous)'} ${pkg}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `busy samples in the drains: ${total} (${(busyUs / 1000).toFixed(0)} ms)`,
    '-- busy self time by package --',
    ...sorted(byPackage).map(([k, v]) => `${pct(v)} ${k}`),
    '-- busy self time by function --',
    ...sorted(byFunction).map(([k, v]) => `${pct(v)} ${k}`),
  ];
}
