// A soak run: both services as real processes under steady mixed traffic, with database faults
// injected on schedule (PostgreSQL stopped and started, the MongoDB stand-in stopped and started
// on the same port) and a SIGTERM to each service at the end, while traffic still runs. Then
// the invariants a shop's database must keep are checked against the databases themselves.
import { openDirectoryDb } from '@dogshop/handler-directory/db/connection';
import { createDb, type Db } from '@dogshop/shop/db/client';
import net from 'node:net';
import {
  DIRECTORY_ADMIN,
  SHOP_API_KEY,
  startPlatform,
  type Platform,
  type Service,
} from './platform.js';
import {
  EXPECTED,
  LOW_STOCK,
  REQUEST_TIMEOUT_MS,
  World,
  call,
  startLoad,
  type Outcome,
  type ServiceName,
} from './traffic.js';

export interface SoakOptions {
  durationMs: number;
  ratePerSecond: number;
  /** Each fault stops a database at `atMs` (run clock) and starts it again `downMs` later. */
  faults: Array<{ database: 'postgres' | 'mongo'; atMs: number; downMs: number }>;
  seed?: number;
  maxInFlight?: number;
  log?: (line: string) => void;
}

export interface Invariant {
  name: string;
  ok: boolean;
  detail: string;
}

export interface FaultReport {
  database: 'postgres' | 'mongo';
  service: ServiceName;
  stoppedAtMs: number;
  startedAtMs: number;
  /** From the stop until /ready first answered 503. */
  readyDownAfterMs: number | null;
  /** From the start until /ready first answered 200 again. */
  readyUpAfterMs: number | null;
  /** Answers of the service's requests that overlapped the outage, by status or error. */
  during: Record<string, number>;
  /** The slowest of those requests (a hang would show here). */
  slowestMs: number;
  /** The service process kept running through the fault (it recovered without a restart). */
  sameProcess?: boolean;
}

export interface ShutdownReport {
  service: ServiceName;
  signalAtMs: number;
  exitCode: number | null;
  /** Requests the test made sure were in flight at the signal, and how they answered. */
  inFlight: Record<string, number>;
}

export interface SoakReport {
  durationMs: number;
  ratePerSecond: number;
  requests: number;
  skipped: number;
  byService: Record<ServiceName, Record<string, number>>;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  faults: FaultReport[];
  shutdowns: ShutdownReport[];
  invariants: Invariant[];
  /** Answers outside an operation's expected statuses that no fault or shutdown explains. */
  unexpected: Array<{ service: ServiceName; op: string; answer: string; atMs: number }>;
  /** The last lines each service printed (warnings and errors), to explain a failure. */
  logs: Record<ServiceName, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** A fault's window reaches this far past /ready answering 200 again. */
const RECOVERY_GRACE_MS = 2_000;
/** Requests this close before a SIGTERM may race the closing of idle connections. */
const SHUTDOWN_RACE_MS = 250;
const BURST = 6;

export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? (() => {});
  log('starting PostgreSQL, the MongoDB stand-in and both services …');
  const platform = await startPlatform();
  const db = createDb(platform.shopDatabaseUrl, 3);
  try {
    const world = new World();
    const initialStock = await prepareCatalogue(db, world);
    const initialHandlers = await directoryHandlers(platform.directoryUri);
    const login = await call(platform.handlerDirectory.url, 'POST', '/api/auth/login', {
      body: DIRECTORY_ADMIN,
    });
    world.adminToken = login.json!.token as string;

    const begin = performance.now();
    const now = () => performance.now() - begin;
    const monitor = startReadyMonitor(platform, now);
    const load = startLoad(
      { shop: platform.shop.url, directory: platform.handlerDirectory.url, world },
      {
        ratePerSecond: opts.ratePerSecond,
        maxInFlight: opts.maxInFlight ?? 200,
        seed: opts.seed ?? 1,
      },
      now,
    );
    log(`traffic: ${opts.ratePerSecond} requests/s for ${(opts.durationMs / 1000).toFixed(0)} s`);

    const faults: Array<{
      database: 'postgres' | 'mongo';
      stoppedAtMs: number;
      startedAtMs: number;
    }> = [];
    for (const fault of [...opts.faults].sort((a, b) => a.atMs - b.atMs)) {
      await sleep(fault.atMs - now());
      const stoppedAtMs = now();
      log(`fault: stopping ${fault.database} at ${(stoppedAtMs / 1000).toFixed(1)} s`);
      await (fault.database === 'postgres' ? platform.stopPostgres() : platform.stopMongo());
      await sleep(fault.atMs + fault.downMs - now());
      await (fault.database === 'postgres' ? platform.startPostgres() : platform.startMongo());
      const startedAtMs = now();
      log(`fault: ${fault.database} running again at ${(startedAtMs / 1000).toFixed(1)} s`);
      faults.push({ database: fault.database, stoppedAtMs, startedAtMs });
    }

    // Both services lived through the faults: recovered by themselves, never restarted.
    const survived = [platform.shop, platform.handlerDirectory].every(
      (service) =>
        service.process.child.exitCode === null && service.process.child.signalCode === null,
    );

    // The end: SIGTERM to each service while traffic still runs.
    await sleep(opts.durationMs - 1_500 - now());
    const shutdowns = [await shutDownShop(platform, db, world, now)];
    log(`SIGTERM: shop exited with ${shutdowns[0]!.exitCode}`);
    shutdowns.push(await shutDownDirectory(platform.handlerDirectory, world, now));
    log(`SIGTERM: handler directory exited with ${shutdowns[1]!.exitCode}`);
    await sleep(opts.durationMs - now());
    await load.stop();
    monitor.stop();
    const durationMs = now();
    log('traffic stopped; checking the invariants …');

    const faultReports = faults.map((f) => ({
      ...faultReport(f, load.outcomes, monitor.samples),
      sameProcess: survived,
    }));
    const report: SoakReport = {
      durationMs,
      ratePerSecond: opts.ratePerSecond,
      requests: load.outcomes.length,
      skipped: load.skipped,
      byService: countByService(load.outcomes),
      latencyMs: latency(load.outcomes),
      faults: faultReports,
      shutdowns,
      unexpected: [],
      invariants: [],
      logs: {
        shop: platform.shop.process.output().slice(-6_000),
        'handler-directory': platform.handlerDirectory.process.output().slice(-6_000),
      },
    };
    const allowed = allowance(faults, monitor.samples, shutdowns);
    report.unexpected = load.outcomes
      .filter(
        (o) =>
          !explained(o, allowed) &&
          (o.status === undefined || !EXPECTED.get(`${o.service} ${o.op}`)!.includes(o.status)),
      )
      .map((o) => ({
        service: o.service,
        op: o.op,
        answer: o.error ?? String(o.status),
        atMs: Math.round(o.startedAt),
      }));
    report.invariants = [
      ...answerInvariants(load.outcomes, allowed),
      ...faultInvariants(faultReports),
      ...shutdownInvariants(shutdowns),
      ...(await shopInvariants(db, world, initialStock)),
      ...(await directoryInvariants(platform.directoryUri, world, initialHandlers)),
    ];
    return report;
  } finally {
    await db.$disconnect().catch(() => undefined);
    await platform.close();
  }
}

/** Plenty of stock, except two products that will run out (409, never below zero). */
async function prepareCatalogue(db: Db, world: World): Promise<Map<number, number>> {
  await db.$executeRawUnsafe('UPDATE products SET stock = 1000000');
  const products = await db.$queryRawUnsafe<Array<{ id: number; name: string; price: string }>>(
    'SELECT id, name, price::text AS price FROM products WHERE active ORDER BY id',
  );
  const low = products.slice(-2).map((p) => p.id);
  await db.$executeRawUnsafe(
    `UPDATE products SET stock = ${LOW_STOCK} WHERE id IN (${low.join(',')})`,
  );
  world.products = products.map((p) => ({ id: p.id, name: p.name, price: Number(p.price) }));
  const stock = await db.$queryRawUnsafe<Array<{ id: number; stock: number }>>(
    'SELECT id, stock FROM products',
  );
  return new Map(stock.map((row) => [row.id, row.stock]));
}

async function directoryHandlers(
  uri: string,
): Promise<Map<string, { name: string; phone: string }>> {
  const directory = await openDirectoryDb(uri);
  try {
    const rows = await directory.handlers.find({}).lean();
    return new Map(rows.map((h) => [h._id.toHexString(), { name: h.name, phone: h.phone }]));
  } finally {
    await directory.close();
  }
}

interface ReadySample {
  service: ServiceName;
  atMs: number;
  status: number | string;
}

function startReadyMonitor(platform: Platform, now: () => number) {
  const samples: ReadySample[] = [];
  let running = true;
  const watch = async (service: Service) => {
    while (running && service.process.child.exitCode === null) {
      const atMs = now();
      const res = await call(service.url, 'GET', '/ready');
      samples.push({ service: service.name, atMs, status: res.status ?? res.error ?? 'none' });
      await sleep(100);
    }
  };
  const watching = Promise.all([watch(platform.shop), watch(platform.handlerDirectory)]);
  return {
    samples,
    stop: () => {
      running = false;
      return watching;
    },
  };
}

const serviceOf = (database: 'postgres' | 'mongo'): ServiceName =>
  database === 'postgres' ? 'shop' : 'handler-directory';

function faultReport(
  fault: { database: 'postgres' | 'mongo'; stoppedAtMs: number; startedAtMs: number },
  outcomes: Outcome[],
  samples: ReadySample[],
): FaultReport {
  const service = serviceOf(fault.database);
  const mine = samples.filter((s) => s.service === service);
  const down = mine.find((s) => s.atMs >= fault.stoppedAtMs && s.status === 503);
  const up = mine.find((s) => s.atMs >= fault.startedAtMs && s.status === 200);
  const end = (up?.atMs ?? fault.startedAtMs) + RECOVERY_GRACE_MS;
  const during = outcomes.filter(
    (o) => o.service === service && o.startedAt <= end && o.endedAt >= fault.stoppedAtMs,
  );
  return {
    database: fault.database,
    service,
    stoppedAtMs: Math.round(fault.stoppedAtMs),
    startedAtMs: Math.round(fault.startedAtMs),
    readyDownAfterMs: down ? Math.round(down.atMs - fault.stoppedAtMs) : null,
    readyUpAfterMs: up ? Math.round(up.atMs - fault.startedAtMs) : null,
    during: tally(during),
    slowestMs: Math.round(Math.max(0, ...during.map((o) => o.endedAt - o.startedAt))),
  };
}

interface Allowance {
  /** Per service: windows in which 503 is the right answer. */
  unavailable: Record<ServiceName, Array<[number, number]>>;
  /** Per service: from when on the service is shutting down. */
  shutdownFrom: Record<ServiceName, number>;
}

function allowance(
  faults: Array<{ database: 'postgres' | 'mongo'; stoppedAtMs: number; startedAtMs: number }>,
  samples: ReadySample[],
  shutdowns: ShutdownReport[],
): Allowance {
  const unavailable: Allowance['unavailable'] = { shop: [], 'handler-directory': [] };
  for (const fault of faults) {
    const service = serviceOf(fault.database);
    const up = samples.find(
      (s) => s.service === service && s.atMs >= fault.startedAtMs && s.status === 200,
    );
    unavailable[service].push([fault.stoppedAtMs, (up?.atMs ?? Infinity) + RECOVERY_GRACE_MS]);
  }
  const shutdownFrom = {
    shop: Infinity,
    'handler-directory': Infinity,
  } as Allowance['shutdownFrom'];
  for (const s of shutdowns) shutdownFrom[s.service] = s.signalAtMs - SHUTDOWN_RACE_MS;
  return { unavailable, shutdownFrom };
}

/** True when a fault or a shutdown explains the answer (503, or no answer after the SIGTERM). */
function explained(o: Outcome, allowed: Allowance): boolean {
  if (o.endedAt >= allowed.shutdownFrom[o.service])
    return o.status === undefined || o.status === 503;
  const inOutage = allowed.unavailable[o.service].some(
    ([from, to]) => o.startedAt <= to && o.endedAt >= from,
  );
  return inOutage && o.status === 503;
}

function answerInvariants(outcomes: Outcome[], allowed: Allowance): Invariant[] {
  const serverErrors = outcomes.filter(
    (o) => o.status !== undefined && o.status >= 500 && !explained(o, allowed),
  );
  const noAnswer = outcomes.filter((o) => o.status === undefined && !explained(o, allowed));
  const mismatches = outcomes.filter((o) => o.mismatch);
  return [
    {
      name: 'no 5xx except 503 during injected faults and shutdowns',
      ok: serverErrors.length === 0,
      detail:
        serverErrors.length === 0
          ? `${outcomes.filter((o) => o.status === 503).length} × 503, all explained`
          : describe(serverErrors),
    },
    {
      name: `every request answered within ${REQUEST_TIMEOUT_MS / 1000} s (no hang, no dropped connection) before shutdown`,
      ok: noAnswer.length === 0,
      detail: noAnswer.length === 0 ? 'all answered' : describe(noAnswer),
    },
    {
      name: 'logins answered as the credentials deserve',
      ok: mismatches.length === 0,
      detail:
        mismatches.length === 0
          ? 'right passwords accepted, wrong ones refused'
          : describe(mismatches),
    },
  ];
}

function describe(outcomes: Outcome[]): string {
  return (
    outcomes
      .slice(0, 5)
      .map(
        (o) =>
          `${o.service} ${o.op} → ${o.error ?? o.status} at ${(o.startedAt / 1000).toFixed(2)} s`,
      )
      .join('; ') + (outcomes.length > 5 ? ` … (${outcomes.length} in all)` : '')
  );
}

function faultInvariants(faults: FaultReport[]): Invariant[] {
  return faults.flatMap((f) => [
    {
      name: `${f.database} stopped: /ready of the ${f.service} turned 503 within 5 s`,
      ok: f.readyDownAfterMs !== null && f.readyDownAfterMs <= 5_000,
      detail: `after ${f.readyDownAfterMs ?? '—'} ms`,
    },
    {
      name: `${f.database} started: the ${f.service} recovered by itself (/ready 200) within 10 s`,
      ok: f.readyUpAfterMs !== null && f.readyUpAfterMs <= 10_000 && f.sameProcess === true,
      detail: `after ${f.readyUpAfterMs ?? '—'} ms, ${f.sameProcess ? 'same process' : 'the process had died'}`,
    },
    {
      name: `${f.database} outage: the ${f.service} answered 503, never 500 or a hang`,
      ok:
        Object.keys(f.during).every((k) => Number(k) < 500 || k === '503') &&
        f.slowestMs < REQUEST_TIMEOUT_MS,
      detail: `${Object.entries(f.during)
        .map(([k, n]) => `${k}×${n}`)
        .join(' ')}; slowest ${f.slowestMs} ms`,
    },
  ]);
}

function shutdownInvariants(shutdowns: ShutdownReport[]): Invariant[] {
  return shutdowns.map((s) => {
    const inFlight = Object.entries(s.inFlight);
    const finished = inFlight.every(([k]) => k.startsWith('2'));
    return {
      name: `SIGTERM to the ${s.service} mid-load: in-flight requests finished, exit 0`,
      ok: s.exitCode === 0 && finished,
      detail: `exit ${s.exitCode}; in flight: ${inFlight.map(([k, n]) => `${k}×${n}`).join(' ') || 'none held'}`,
    };
  });
}

/**
 * SIGTERM to the shop while orders are certainly in flight: a row lock held here makes BURST
 * orders wait inside their transactions; the signal goes out while they wait, then the lock is
 * released. They must all complete (201) and the process must exit 0.
 */
async function shutDownShop(
  platform: Platform,
  db: Db,
  world: World,
  now: () => number,
): Promise<ShutdownReport> {
  const product = world.products[0]!;
  const body = {
    customer_name: 'Shutdown',
    customer_email: 'shutdown@example.com',
    items: [
      { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
    ],
  };
  let burst: Array<Promise<Awaited<ReturnType<typeof call>>>> = [];
  let signalAtMs = 0;
  await db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe('SELECT id FROM products WHERE id = $1 FOR UPDATE', product.id);
      burst = Array.from({ length: BURST }, () =>
        call(platform.shop.url, 'POST', '/orders', {
          headers: { 'x-api-key': SHOP_API_KEY },
          body,
        }),
      );
      for (let i = 0; i < 250; i++) {
        const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (row!.n >= BURST) break;
        await sleep(20);
      }
      signalAtMs = now();
      platform.shop.process.child.kill('SIGTERM');
      await sleep(300);
    },
    { maxWait: 5_000, timeout: 20_000 },
  );
  const answers = await Promise.all(burst);
  for (const res of answers) {
    if (res.status === 201) {
      const id = (res.json!.data as { order_id: number }).order_id;
      world.orders.set(id, { id, lines: new Map([[product.id, 1]]), status: 'pending' });
    }
  }
  const exitCode = await exitWithin(platform.shop, 15_000);
  return {
    service: 'shop',
    signalAtMs,
    exitCode,
    inFlight: tally(answers.map((a) => ({ status: a.status, error: a.error }))),
  };
}

/**
 * SIGTERM to the handler directory while a create is certainly in flight: its headers and half
 * its body are sent before the signal, the rest after. It must still be created (201) and the
 * process must exit 0.
 */
async function shutDownDirectory(
  service: Service,
  world: World,
  now: () => number,
): Promise<ShutdownReport> {
  const name = `Soak Hundeführer beim Herunterfahren ${world.counter++}`;
  const body = Buffer.from(JSON.stringify({ name, phone: '+49 30 999' }));
  const port = Number(new URL(service.url).port);
  const socket = net.connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => resolve(text));
    socket.on('close', () => resolve(text));
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /api/users HTTP/1.1\r\nHost: soak\r\nAuthorization: Bearer ${world.adminToken}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, 10));
  await sleep(100);
  const signalAtMs = now();
  service.process.child.kill('SIGTERM');
  await sleep(300);
  socket.write(body.subarray(10)); // no FIN: a half-closed request is an abandoned one
  const text = await answer;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0) || undefined;
  if (status === 201) {
    const id = (JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { data: { _id: string } })
      .data._id;
    world.handlers.set(id, { name, phone: '+49 30 999', uncertainPhones: [] });
  } else {
    world.uncertainHandlerNames.add(name);
  }
  const exitCode = await exitWithin(service, 15_000);
  return {
    service: service.name,
    signalAtMs,
    exitCode,
    inFlight: tally([status === undefined ? { error: 'no answer' } : { status }]),
  };
}

async function exitWithin(service: Service, ms: number): Promise<number | null> {
  const timer = setTimeout(() => service.process.child.kill('SIGKILL'), ms);
  try {
    return await service.process.exited;
  } finally {
    clearTimeout(timer);
  }
}

function tally(items: Array<{ status?: number; error?: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const key = item.error ?? String(item.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function countByService(outcomes: Outcome[]): SoakReport['byService'] {
  return {
    shop: tally(outcomes.filter((o) => o.service === 'shop')),
    'handler-directory': tally(outcomes.filter((o) => o.service === 'handler-directory')),
  };
}

function latency(outcomes: Outcome[]): SoakReport['latencyMs'] {
  const ms = outcomes.map((o) => o.endedAt - o.startedAt).sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(ms.at(-1) ?? 0) };
}

async function shopInvariants(
  db: Db,
  world: World,
  initialStock: Map<number, number>,
): Promise<Invariant[]> {
  const orders = await db.$queryRawUnsafe<
    Array<{
      id: number;
      status: string;
      total: string;
      items_total: string;
      item_count: number;
      history: number;
      last_status: string | null;
    }>
  >(`SELECT o.id, o.status::text AS status, o.total_amount::text AS total,
            (SELECT coalesce(sum(i.total_price), 0)::text FROM order_items i WHERE i.order_id = o.id) AS items_total,
            (SELECT count(*)::int FROM order_items i WHERE i.order_id = o.id) AS item_count,
            (SELECT count(*)::int FROM order_status_history h WHERE h.order_id = o.id) AS history,
            (SELECT h.to_status::text FROM order_status_history h WHERE h.order_id = o.id
              ORDER BY h.changed_at DESC, h.id DESC LIMIT 1) AS last_status
       FROM orders o`);
  const items = await db.$queryRawUnsafe<
    Array<{ order_id: number; product_id: number; quantity: number }>
  >('SELECT order_id, product_id, quantity FROM order_items');
  const stock = await db.$queryRawUnsafe<Array<{ id: number; stock: number; taken: number }>>(
    `SELECT p.id, p.stock,
            coalesce(sum(i.quantity) FILTER (WHERE o.status <> 'cancelled'), 0)::int AS taken
       FROM products p
       LEFT JOIN order_items i ON i.product_id = p.id
       LEFT JOIN orders o ON o.id = i.order_id
      GROUP BY p.id`,
  );
  const duplicateReviews = await db.$queryRawUnsafe<
    Array<{ product_id: number; customer_id: number; n: number }>
  >(
    'SELECT product_id, customer_id, count(*)::int AS n FROM reviews GROUP BY 1, 2 HAVING count(*) > 1',
  );
  const reviews = new Set(
    (
      await db.$queryRawUnsafe<Array<{ product_id: number; customer_id: number }>>(
        'SELECT product_id, customer_id FROM reviews',
      )
    ).map((r) => `${r.customer_id}/${r.product_id}`),
  );
  const emails = new Set(
    (await db.$queryRawUnsafe<Array<{ email: string }>>('SELECT email FROM customers')).map(
      (c) => c.email,
    ),
  );

  const byId = new Map(orders.map((o) => [o.id, o]));
  const linesOf = new Map<number, Map<number, number>>();
  for (const item of items) {
    const lines = linesOf.get(item.order_id) ?? new Map<number, number>();
    lines.set(item.product_id, (lines.get(item.product_id) ?? 0) + item.quantity);
    linesOf.set(item.order_id, lines);
  }
  const lost = [...world.orders.values()].filter((o) => {
    const stored = linesOf.get(o.id);
    return (
      !byId.has(o.id) ||
      !stored ||
      stored.size !== o.lines.size ||
      [...o.lines].some(([p, q]) => stored.get(p) !== q)
    );
  });
  const wrongStatus = [...world.orders.values()].filter(
    (o) => o.status === 'cancelled' && byId.get(o.id)?.status !== 'cancelled',
  );
  const halfWritten = orders.filter(
    (o) =>
      o.item_count === 0 ||
      Number(o.total) !== Number(o.items_total) ||
      o.history === 0 ||
      o.last_status !== o.status,
  );
  const stockWrong = stock.filter((s) => s.stock !== (initialStock.get(s.id) ?? 0) - s.taken);
  const negative = stock.filter((s) => s.stock < 0);
  const lostReviews = world.reviews.filter((r) => !reviews.has(`${r.customerId}/${r.productId}`));
  const lostCustomers = world.registeredEmails.filter((e) => !emails.has(e));
  const replayWrong = world.replays.filter((r) => r.original !== r.replayed);
  const soldOut = stock.filter((s) => (initialStock.get(s.id) ?? 0) === LOW_STOCK);

  return [
    {
      name: 'shop: every order that answered 201 exists with its items',
      ok: lost.length === 0,
      detail:
        lost.length === 0
          ? `${world.orders.size} orders checked`
          : `missing or different: ${lost
              .slice(0, 5)
              .map((o) => o.id)
              .join(', ')}`,
    },
    {
      name: 'shop: no half-written orders (items present, totals add up, status history complete)',
      ok: halfWritten.length === 0,
      detail:
        halfWritten.length === 0
          ? `${orders.length} orders in the database`
          : `orders ${halfWritten
              .slice(0, 5)
              .map((o) => o.id)
              .join(', ')}`,
    },
    {
      name: 'shop: stock = initial − sum of non-cancelled order quantities, for every product',
      ok: stockWrong.length === 0,
      detail:
        stockWrong.length === 0
          ? `${stock.length} products; ${orders.filter((o) => o.status === 'cancelled').length} cancelled orders returned their stock`
          : stockWrong
              .slice(0, 5)
              .map((s) => `product ${s.id}: ${s.stock} ≠ ${initialStock.get(s.id)} − ${s.taken}`)
              .join('; '),
    },
    {
      name: 'shop: no negative stock (low-stock products ran out with 409, never oversold)',
      ok: negative.length === 0,
      detail: `lowest ${Math.min(...stock.map((s) => s.stock))}; low-stock products now ${soldOut.map((s) => s.stock).join(', ')}`,
    },
    {
      name: 'shop: one review per customer and product; every 201 review exists',
      ok: duplicateReviews.length === 0 && lostReviews.length === 0,
      detail: `${reviews.size} reviews; ${duplicateReviews.length} duplicates; ${lostReviews.length} lost`,
    },
    {
      name: 'shop: every registered customer exists; every cancelled order is cancelled; replays return the original order',
      ok: lostCustomers.length === 0 && wrongStatus.length === 0 && replayWrong.length === 0,
      detail: `${world.registeredEmails.length} customers, ${[...world.orders.values()].filter((o) => o.status === 'cancelled').length} cancellations, ${world.replays.length} replays; problems: ${lostCustomers.length + wrongStatus.length + replayWrong.length}`,
    },
  ];
}

async function directoryInvariants(
  uri: string,
  world: World,
  initial: Map<string, { name: string; phone: string }>,
): Promise<Invariant[]> {
  const stored = await directoryHandlers(uri);
  const lost = [...world.handlers].filter(([id, h]) => {
    const now = stored.get(id);
    return (
      !now ||
      now.name !== h.name ||
      (now.phone !== h.phone && !h.uncertainPhones.includes(now.phone))
    );
  });
  const resurrected = [...world.deletedHandlers].filter((id) => stored.has(id));
  const unknown = [...stored].filter(
    ([id, h]) =>
      !initial.has(id) &&
      !world.handlers.has(id) &&
      !world.maybeDeletedHandlers.has(id) &&
      !world.uncertainHandlerNames.has(h.name),
  );
  return [
    {
      name: 'handler directory: every handler created (201) or changed (200) is stored as answered',
      ok: lost.length === 0,
      detail:
        lost.length === 0
          ? `${world.handlers.size} handlers checked`
          : `lost or changed: ${lost
              .slice(0, 5)
              .map(([id]) => id)
              .join(', ')}`,
    },
    {
      name: 'handler directory: deleted (200) handlers stay deleted; nothing appeared from nowhere',
      ok: resurrected.length === 0 && unknown.length === 0,
      detail: `${world.deletedHandlers.size} deleted, ${resurrected.length} back; ${stored.size} stored (${initial.size} at the start), ${unknown.length} unaccounted for`,
    },
  ];
}

/** The report as text: figures first, then every invariant with its result. */
export function formatReport(report: SoakReport): string {
  const line = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}×${n}`)
      .join('  ');
  const out = [
    `duration            ${(report.durationMs / 1000).toFixed(1)} s at ${report.ratePerSecond} requests/s`,
    `requests            ${report.requests} (${report.skipped} starts skipped at the in-flight cap)`,
    `shop                ${line(report.byService.shop)}`,
    `handler directory   ${line(report.byService['handler-directory'])}`,
    `latency             p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
    ...report.faults.map(
      (f) =>
        `fault               ${f.database} down ${((f.startedAtMs - f.stoppedAtMs) / 1000).toFixed(1)} s at ${(f.stoppedAtMs / 1000).toFixed(1)} s: /ready 503 after ${f.readyDownAfterMs} ms, 200 again ${f.readyUpAfterMs} ms after the start; answers ${line(f.during)}`,
    ),
    ...report.shutdowns.map(
      (s) =>
        `SIGTERM             ${s.service} at ${(s.signalAtMs / 1000).toFixed(1)} s: exit ${s.exitCode}, in flight ${line(s.inFlight)}`,
    ),
    `unexpected answers  ${
      report.unexpected.length === 0
        ? 'none'
        : report.unexpected
            .slice(0, 10)
            .map((u) => `${u.service} ${u.op} ${u.answer} at ${u.atMs} ms`)
            .join('; ')
    }`,
    'invariants:',
    ...report.invariants.map((i) => `  ${i.ok ? 'PASS' : 'FAIL'}  ${i.name} — ${i.detail}`),
  ];
  return out.join('\n');
}
