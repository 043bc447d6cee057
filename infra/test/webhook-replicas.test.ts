// Webhook delivery by two real shop processes (the built dist, as the image starts it) on one
// PostgreSQL, to a real receiver on 127.0.0.1 that verifies every delivery with the
// `standardwebhooks` library (issue 23): a burst of orders through both replicas' APIs is
// delivered whole, no webhook-id is ever being delivered by both replicas at once, and when the
// replica sending an event is killed (SIGKILL) mid-delivery the other sends it once the claim's
// lease (WEBHOOK_CLAIM_LEASE_SECONDS, 12 here) ends. The receiver tells the replicas apart by which
// process owns the connecting socket (/proc), so both replicas run throughout. Loopback only.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { sleep, type RunningProcess } from '@dogshop/child-processes';
import { startPostgres, type TestDatabase } from './support/databases.js';
import { serviceDir } from './support/paths.js';
import { migrateShop, SHOP_API_KEY, startShop, type RunningService } from './support/platform.js';

/**
 * The Standard Webhooks library, as the shop's package has it (infra lists no dependency of its
 * own on it): the receiver verifies with the reference implementation, not the shop's code.
 */
const { Webhook } = createRequire(path.join(serviceDir('shop'), 'package.json'))(
  'standardwebhooks',
) as {
  Webhook: new (secret: string) => {
    verify: (payload: string, headers: Record<string, string>) => unknown;
  };
};

const LEASE_SECONDS = 12;
/**
 * Orders of the burst: 250 in `pnpm test` (both replicas still share it, with overlaps checked on
 * every delivery); the load-sized 1,000 are `pnpm bench --only L-WEBHOOKS` (WEBHOOK_BURST_ORDERS).
 */
const BURST_ORDERS = Number(process.env.WEBHOOK_BURST_ORDERS ?? 250);

let dataDir: string;
let postgres: TestDatabase;
let sql: pg.Client;
const processes: RunningProcess[] = [];
const shops: RunningService[] = [];
const receiver = new (class Receiver {
  readonly arrivals: Arrival[] = [];
  secret = '';
  /** The next request with a webhook-id not seen before gets no answer. */
  hangNext: ((arrival: Arrival) => void) | undefined;
  private server: http.Server | undefined;
  port = 0;

  async listen(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/shop`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const arrival: Arrival = {
      id: String(req.headers['webhook-id']),
      start: performance.now(),
      end: undefined,
      answer: 'none',
      replica: undefined,
      body: undefined,
      error: undefined,
    };
    this.arrivals.push(arrival);
    // The exchange's end, answered or not (a hung request's ends when its connection does). On
    // the response, not the kept-alive socket, which would gather a listener per request.
    res.once('close', () => (arrival.end ??= performance.now()));
    // While the request is open its socket exists on both ends: find the process at the other
    // (synchronously: a few hundred system calls, no trips through libuv's busy thread pool).
    arrival.replica = socketOwner(req.socket.remotePort!, this.port);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      arrival.body = new Webhook(this.secret).verify(raw, {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      }) as ShopEventBody;
    } catch (error) {
      arrival.error = String(error);
    }
    const hang = this.hangNext;
    if (hang && !this.arrivals.some((a) => a !== arrival && a.id === arrival.id)) {
      this.hangNext = undefined;
      arrival.answer = 'hung';
      hang(arrival);
      return; // never answered: the sender's attempt stays open until it dies
    }
    if (req.socket.destroyed) {
      arrival.answer = 'too late'; // the sender gave up (its time-out) before we answered
      return;
    }
    arrival.answer = arrival.error ? 400 : 200;
    res.once('finish', () => (arrival.end = performance.now()));
    res.writeHead(arrival.answer).end(arrival.error ? 'bad signature' : 'ok');
  }

  acknowledged(): Arrival[] {
    return this.arrivals.filter((a) => a.answer === 200);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
})();
/** Figures for the note: printed once at the end (as replicas.test.ts does). */
const figures: Record<string, unknown> = {};

interface ShopEventBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

interface FeedEvent extends ShopEventBody {
  id: string;
  sequence: number;
}

/** One request the receiver got. Times are performance.now() of this process. */
interface Arrival {
  id: string;
  start: number;
  /** When the answer went out, or the connection closed unanswered. */
  end: number | undefined;
  answer: 200 | 400 | 'hung' | 'too late' | 'none';
  /** The pid of the replica that sent it. */
  replica: number | undefined;
  /** The verified body; undefined when verification failed (`error`). */
  body: ShopEventBody | undefined;
  error: string | undefined;
}

/**
 * The pid (of `pids`, default the replicas') owning the TCP socket 127.0.0.1:`localPort` →
 * :`remotePort`: the socket's inode from /proc/net/tcp, then the process with a descriptor on it.
 */
function socketOwner(
  localPort: number,
  remotePort: number,
  pids = shops.map((s) => s.process.pid),
): number | undefined {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inode = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(hex(localPort)) && f[2]?.endsWith(hex(remotePort)))?.[9];
  if (!inode || inode === '0') return undefined;
  const socket = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === socket) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

const apiKey = { 'x-api-key': SHOP_API_KEY };
const base = (shop: RunningService) => `http://127.0.0.1:${shop.port}`;

async function call(
  shop: RunningService,
  url: string,
  opts: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: { data?: unknown; [key: string]: unknown } }> {
  const res = await fetch(`${base(shop)}${url}`, {
    method: opts.method ?? 'GET',
    headers: {
      ...apiKey,
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, json: (await res.json()) as { data?: unknown } };
}

/** Every event of the feed after `after`, through `GET /events` (500 a page). */
async function feedAfter(shop: RunningService, after: number): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (;;) {
    const page = await call(shop, `/events?after=${after}&limit=500`);
    expect(page.status).toBe(200);
    const data = page.json.data as { events: FeedEvent[]; next_after: number };
    events.push(...data.events);
    if (data.events.length < 500) return events;
    after = data.next_after;
  }
}

async function until(what: string, condition: () => Promise<boolean> | boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await sleep(50);
  }
}

/** Pairs of requests for one webhook-id whose times overlap (none may). */
function overlaps(arrivals: Arrival[]): string[] {
  const byId = new Map<string, Arrival[]>();
  for (const a of arrivals) byId.set(a.id, [...(byId.get(a.id) ?? []), a]);
  const found: string[] = [];
  for (const [id, list] of byId) {
    const sorted = [...list].sort((x, y) => x.start - y.start);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1]!;
      const after = sorted[i]!;
      if ((before.end ?? Infinity) > after.start) {
        found.push(`${id}: replica ${before.replica} and replica ${after.replica}`);
      }
    }
  }
  return found;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'infra-webhook-replicas-'));
  postgres = await startPostgres();
  await migrateShop(postgres.url);
  sql = new pg.Client({ connectionString: postgres.url });
  await sql.connect();
  await receiver.listen();
  // One after the other: the first loads the demo catalogue into the empty database.
  for (const index of [0, 1]) {
    shops.push(
      await startShop(
        {
          name: `shop-${index}`,
          dataDir: mkdtempSync(path.join(dataDir, `shop-${index}-`)),
          databaseUrl: postgres.url,
          env: {
            LOG_LEVEL: 'warn',
            RATE_LIMIT_PER_MINUTE: '100000', // the burst comes from one address
            WEBHOOK_ALLOW_HTTP: 'true',
            WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
            WEBHOOK_CLAIM_LEASE_SECONDS: String(LEASE_SECONDS),
          },
        },
        processes,
      ),
    );
  }
}, 60_000);

afterAll(async () => {
  await receiver.close();
  await Promise.all(processes.map((p) => p.stop('SIGTERM')));
  await sql?.end();
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  console.log(`webhook replica test figures:\n${JSON.stringify(figures, null, 2)}`);
}, 60_000);

let hook: { id: number; secret: string };
let product: { id: number; name: string; price: number };
const orderBody = (email: string) => ({
  customer_name: 'Webhook Kundin',
  customer_email: email,
  items: [
    { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
  ],
});

describe('two replicas on one database', () => {
  it('deliver a burst of orders: every event acknowledged, verified, none by both at once', async () => {
    const created = await call(shops[0]!, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['*'], description: 'infra replica test' },
    });
    expect(created.status).toBe(201);
    hook = created.json.data as { id: number; secret: string };
    receiver.secret = hook.secret;
    const products = await call(shops[1]!, '/products?limit=1');
    product = (products.json.data as Array<typeof product>)[0]!;
    // Exactly enough: the last order sells out, so the burst has a product event too.
    await sql.query('UPDATE products SET stock = $1 WHERE id = $2', [BURST_ORDERS, product.id]);
    // The feed so far (the demo data's events, if any): the burst's events come after it.
    const before = await feedAfter(shops[0]!, 0);
    const baseline = before.at(-1)?.sequence ?? 0;

    const started = performance.now();
    const orderIds: number[] = [];
    let next = 0;
    const client = async () => {
      while (next < BURST_ORDERS) {
        const n = next++;
        const placed = await call(shops[n % 2]!, '/orders', {
          method: 'POST',
          body: orderBody(`burst-${n}@example.com`),
        });
        expect(placed.status).toBe(201);
        orderIds.push((placed.json.data as { order_id: number }).order_id);
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    const placedMs = performance.now() - started;

    // Every event of the feed after the baseline acknowledged: an order.created each and the
    // product's product.out_of_stock.
    let feed: FeedEvent[] = [];
    const expected = BURST_ORDERS + 1;
    await until(
      'the feed has every event of the burst, acknowledged by the receiver',
      async () => {
        if (feed.length < expected) feed = await feedAfter(shops[0]!, baseline);
        const acked = new Set(receiver.acknowledged().map((a) => a.id));
        if (feed.length < expected || !feed.every((e) => acked.has(e.id))) return false;
        // … and recorded so by the shop (an answer can come too late for its attempt).
        const { rows } = await sql.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM webhook_deliveries
            WHERE webhook_id = $1 AND status = 'delivered'`,
          [hook.id],
        );
        return Number(rows[0]!.n) === expected;
      },
      // Each replica's worker claims at most 4 deliveries of one webhook per 250 ms poll, so
      // 1,001 events take some 30 s to send (more on a busy machine).
      80_000,
    );
    const deliveredMs = performance.now() - started;
    await sleep(1_000); // a second request for any of them would come now, if at all

    expect(feed.filter((e) => e.type === 'order.created')).toHaveLength(BURST_ORDERS);
    expect(feed.filter((e) => e.type !== 'order.created').map((e) => e.type)).toEqual([
      'product.out_of_stock',
    ]);
    expect(
      feed
        .filter((e) => e.type === 'order.created')
        .map((e) => e.data.id as number)
        .sort((a, b) => a - b),
    ).toEqual([...orderIds].sort((a, b) => a - b));

    const arrivals = receiver.arrivals;
    expect(arrivals.filter((a) => a.error !== undefined).map((a) => a.error)).toEqual([]);
    // Each delivered body is its feed event, as verified from the signature.
    const byId = new Map(feed.map((e) => [e.id, e]));
    for (const a of arrivals) {
      const event = byId.get(a.id);
      expect({ id: a.id, body: a.body }).toEqual({
        id: a.id,
        body: { type: event?.type, timestamp: event?.timestamp, data: event?.data },
      });
    }
    expect(overlaps(arrivals)).toEqual([]);
    // A second request for an event is right only after an attempt that failed (the receiver's
    // answer came too late): each is one failed attempt in the shop's log. One claimed twice
    // would be a request with no failed attempt before it.
    const duplicates = arrivals.length - new Set(arrivals.map((a) => a.id)).size;
    const { rows: attempts } = await sql.query<{ ok: boolean; n: string }>(
      `SELECT coalesce(a.status_code BETWEEN 200 AND 299, false) AS ok, count(*)::text AS n
         FROM delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.webhook_id = $1 GROUP BY 1`,
      [hook.id],
    );
    const failedAttempts = Number(attempts.find((r) => !r.ok)?.n ?? 0);
    const perReplica = shops.map((s) => arrivals.filter((a) => a.replica === s.process.pid).length);
    figures.burst = {
      orders: BURST_ORDERS,
      eventsInFeed: feed.length,
      requestsReceived: arrivals.length,
      acknowledged: receiver.acknowledged().length,
      duplicates,
      failedAttempts,
      byReplica: perReplica,
      unattributed: arrivals.length - perReplica[0]! - perReplica[1]!,
      ordersPlacedSeconds: +(placedMs / 1000).toFixed(1),
      lastDeliveredAfterSeconds: +(deliveredMs / 1000).toFixed(1),
    };
    expect(Number(attempts.find((r) => r.ok)?.n)).toBe(expected);
    expect(duplicates).toBe(failedAttempts);
    expect(arrivals).toHaveLength(expected + failedAttempts);
    // Both replicas delivered a share.
    expect(perReplica.every((n) => n > 0)).toBe(true);

    // The shop's own record agrees: every delivery delivered, one claim per attempt.
    const { rows } = await sql.query<{ status: string; n: string; attempts: string }>(
      `SELECT status::text, count(*)::text AS n, sum(attempts)::text AS attempts
         FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY status`,
      [hook.id],
    );
    expect(rows).toEqual([
      { status: 'delivered', n: String(expected), attempts: String(expected + failedAttempts) },
    ]);
    const log = await call(shops[1]!, `/webhooks/${hook.id}/deliveries?outcome=delivered&limit=1`);
    expect((log.json.data as { pagination: { total: number } }).pagination.total).toBe(expected);
  }, 120_000);

  it('a replica killed (SIGKILL) mid-delivery: the other sends the event when the lease ends', async () => {
    await sql.query('UPDATE products SET stock = 10 WHERE id = $1', [product.id]);
    const hung = new Promise<Arrival>((resolve) => (receiver.hangNext = resolve));
    const placed = await call(shops[0]!, '/orders', {
      method: 'POST',
      body: orderBody('killed-mid-delivery@example.com'),
    });
    expect(placed.status).toBe(201);
    const orderId = (placed.json.data as { order_id: number }).order_id;
    const first = await hung;
    expect(first.body?.type).toBe('order.created');
    expect(first.body?.data.id).toBe(orderId);
    const victim = shops.find((s) => s.process.pid === first.replica);
    const survivor = shops.find((s) => s !== victim)!;
    expect(victim).toBeDefined();

    await victim!.process.stop('SIGKILL');
    const killedAt = performance.now();
    await until(
      `the other replica delivers ${first.id}`,
      () => receiver.acknowledged().some((a) => a.id === first.id),
      LEASE_SECONDS * 1000 + 15_000,
    );
    const second = receiver.acknowledged().find((a) => a.id === first.id)!;
    await sleep(500);

    const attempts = receiver.arrivals.filter((a) => a.id === first.id);
    figures.sigkill = {
      leaseSeconds: LEASE_SECONDS,
      killedReplica: shops.indexOf(victim!),
      firstArrivalToKillMs: Math.round(killedAt - first.start),
      killToRedeliveryMs: Math.round(second.start - killedAt),
      firstToSecondArrivalMs: Math.round(second.start - first.start),
      requestsForTheEvent: attempts.length,
    };
    expect(second.replica).toBe(survivor.process.pid);
    expect(second.error).toBeUndefined();
    expect(second.body).toEqual(first.body);
    // Not before the lease ended (it began before the first request arrived), and soon after.
    expect(second.start - first.start).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 1_000);
    expect(second.start - first.start).toBeLessThan(LEASE_SECONDS * 1000 + 5_000);
    expect(attempts.map((a) => a.answer)).toEqual(['hung', 200]);
    expect(overlaps(attempts)).toEqual([]);

    // The log shows the one attempt that finished; the killed replica's claim counted an attempt
    // it never recorded.
    const page = await call(survivor, `/webhooks/${hook.id}/deliveries?limit=1`);
    const [delivery] = (page.json.data as { deliveries: Array<Record<string, unknown>> })
      .deliveries;
    expect(delivery).toMatchObject({
      event_id: first.id,
      status: 'delivered',
      attempts: 2,
      log: [expect.objectContaining({ status_code: 200, error: null })],
    });
  }, 60_000);
});
