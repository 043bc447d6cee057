import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorEnvelope } from '../src/error-envelope.js';
import { healthRoutes } from '../src/health.js';
import { LoginLimiter } from '../src/login-limiter.js';
import { GAUGE_COLLECT_TIMEOUT_MS, prometheusMetrics, type PoolStats } from '../src/metrics.js';
import { serverOptions } from '../src/server-options.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A small app as the services build theirs: envelope, metrics, health, a few routes. */
async function buildApp(pool?: PoolStats): Promise<{
  app: FastifyInstance;
  /** Resolves the pending GET /slow. */
  release: () => void;
  /** Resolves when GET /slow has reached its handler. */
  slowStarted: Promise<void>;
}> {
  const app = Fastify(serverOptions({ logLevel: 'silent' }));
  apps.push(app);
  await app.register(errorEnvelope, {
    body: (status_code, error) => ({ success: false, error, status_code }),
  });
  await app.register(prometheusMetrics, pool ? { poolStats: () => pool } : {});
  await app.register(healthRoutes, { isReady: async () => true });
  app.get('/products/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  app.get('/refused', async (_request, reply) => reply.code(409).send({ success: false }));
  let release = () => {};
  let started = () => {};
  const slowStarted = new Promise<void>((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  app.get('/slow', async () => {
    started();
    await gate;
    return { ok: true };
  });
  await app.ready();
  return { app, release: () => release(), slowStarted };
}

async function scrape(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ url: '/metrics' });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of one sample line (`name{labels} value`), or undefined when there is none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const durationCount = (method: string, route: string, status: number) =>
  `http_request_duration_seconds_count{method="${method}",route="${route}",status_code="${status}"}`;

describe('prometheusMetrics', () => {
  it('times requests by route pattern and status, unknown routes as one label', async () => {
    const { app } = await buildApp();
    await app.inject({ url: '/products/7' });
    await app.inject({ url: '/products/8' });
    await app.inject({ url: '/refused' });
    await app.inject({ url: '/no/such/route/42' });
    await app.inject({ method: 'HEAD', url: '/products/9' });
    const text = await scrape(app);
    expect(sample(text, durationCount('GET', '/products/:id', 200))).toBe(2);
    expect(sample(text, durationCount('GET', '/refused', 409))).toBe(1);
    expect(sample(text, durationCount('GET', 'unmatched', 404))).toBe(1);
    // The automatic HEAD route is timed once, under its own method.
    expect(sample(text, durationCount('HEAD', '/products/:id', 200))).toBe(1);
    // Buckets in seconds, up to 5 s.
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="5",method="GET",route="/products/:id",status_code="200"} 2',
    );
    // Never a raw URL as a label value.
    expect(text).not.toContain('/products/7');
    expect(text).not.toContain('/no/such/route');
  });

  it('serves the Prometheus text format, not cached, and does not time probes or itself', async () => {
    const { app } = await buildApp();
    await app.inject({ url: '/health' });
    await app.inject({ url: '/ready' });
    await scrape(app);
    const res = await app.inject({ url: '/metrics' });
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).not.toMatch(/route="\/(health|ready|metrics)"/);
  });

  it('counts requests in flight, and forgets one whose client went away', async () => {
    const { app, release, slowStarted } = await buildApp();
    const pending = app.inject({ url: '/slow' });
    await slowStarted;
    // The pending request and the scrape itself.
    expect(sample(await scrape(app), 'http_requests_in_flight')).toBe(2);
    release();
    expect((await pending).statusCode).toBe(200);
    expect(sample(await scrape(app), 'http_requests_in_flight')).toBe(1);

    // A client that disconnects before its answer: Fastify runs no onResponse hook for it.
    const aborted = await buildApp();
    await aborted.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = aborted.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await aborted.slowStarted;
    expect(sample(await scrape(aborted.app), 'http_requests_in_flight')).toBe(2);
    socket.destroy();
    await waitFor(async () => sample(await scrape(aborted.app), 'http_requests_in_flight') === 1);
    aborted.release();
  });

  it('reports the database pool on each scrape', async () => {
    const pool: PoolStats = { max: 10, inUse: 3, idle: 2, waiting: 0 };
    const { app } = await buildApp(pool);
    let text = await scrape(app);
    expect(sample(text, 'db_pool_connections{state="in_use"}')).toBe(3);
    expect(sample(text, 'db_pool_connections{state="idle"}')).toBe(2);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(text, 'db_pool_max_connections')).toBe(10);
    Object.assign(pool, { inUse: 10, idle: 0, waiting: 7 });
    text = await scrape(app);
    expect(sample(text, 'db_pool_connections{state="in_use"}')).toBe(10);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(7);
  });

  it("keeps each app's metrics in its own registry, with Node's process metrics", async () => {
    const first = await buildApp();
    const second = await buildApp(); // a shared default registry would refuse the same names
    await first.app.inject({ url: '/products/1' });
    const text = await scrape(second.app);
    expect(sample(text, durationCount('GET', '/products/:id', 200))).toBeUndefined();
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('counts failed and throttled logins where the login limiter decides them', async () => {
    const { app } = await buildApp();
    const limiter = new LoginLimiter({
      maxFailures: 2,
      windowMs: 60_000,
      counters: { failed: app.metrics.loginsFailed, throttled: app.metrics.loginsThrottled },
    });
    const wrong = () => limiter.attempt('10.0.0.1', 'ann', async () => null);
    expect(sample(await scrape(app), 'logins_failed_total')).toBe(0);
    await wrong();
    await wrong();
    expect(await wrong()).toMatchObject({ limited: true });
    await limiter.attempt('10.0.0.2', 'ann', async () => ({ id: 1 })); // a success counts nowhere
    const text = await scrape(app);
    expect(sample(text, 'logins_failed_total')).toBe(2);
    expect(sample(text, 'logins_throttled_total')).toBe(1);
  });
});

describe('gauges read when scraped', () => {
  it('reads the value on each scrape; no sample while it cannot be read, the scrape still answers', async () => {
    const { app } = await buildApp();
    let value: number | Error = 7;
    let reads = 0;
    app.metrics.gauge('queue_oldest_age_seconds', 'Age of the oldest queued item.', async (g) => {
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve)); // as a query would
      if (value instanceof Error) throw value;
      g.set(value);
    });
    expect(sample(await scrape(app), 'queue_oldest_age_seconds')).toBe(7);
    value = 0;
    expect(sample(await scrape(app), 'queue_oldest_age_seconds')).toBe(0);

    // The database is down: no sample (not the last value, not 0), the rest is reported.
    value = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const text = await scrape(app);
    expect(text).toContain('# TYPE queue_oldest_age_seconds gauge');
    expect(sample(text, 'queue_oldest_age_seconds')).toBeUndefined();
    expect(text).toContain('http_requests_in_flight 1');
    value = 12;
    expect(sample(await scrape(app), 'queue_oldest_age_seconds')).toBe(12);
    expect(reads).toBe(4);
  });

  it('gives up on a collect that does not end in time, and starts no second one meanwhile', async () => {
    const { app } = await buildApp();
    let release = () => {};
    let hang = true;
    let reads = 0;
    app.metrics.gauge('slow_gauge', 'A gauge behind a hanging query.', async (g) => {
      reads += 1;
      if (hang) await new Promise<void>((resolve) => (release = resolve));
      g.set(3);
    });
    const started = Date.now();
    let text = await scrape(app);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GAUGE_COLLECT_TIMEOUT_MS - 50);
    expect(sample(text, 'slow_gauge')).toBeUndefined();
    // Still hanging: this scrape answers at once, without piling up a second query.
    const again = Date.now();
    text = await scrape(app);
    expect(Date.now() - again).toBeLessThan(GAUGE_COLLECT_TIMEOUT_MS);
    expect(sample(text, 'slow_gauge')).toBeUndefined();
    expect(reads).toBe(1);
    hang = false;
    release();
    await waitFor(async () => sample(await scrape(app), 'slow_gauge') === 3);
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it('sets labelled values, all dropped when the collect fails', async () => {
    const { app } = await buildApp();
    let fail = false;
    app.metrics.gauge(
      'subscriptions_disabled',
      'Disabled subscriptions by who disabled them.',
      (g) => {
        if (fail) throw new Error('no database');
        g.set({ by: 'shop' }, 2);
        g.set({ by: 'owner' }, 1);
      },
      ['by'],
    );
    let text = await scrape(app);
    expect(sample(text, 'subscriptions_disabled{by="shop"}')).toBe(2);
    expect(sample(text, 'subscriptions_disabled{by="owner"}')).toBe(1);
    fail = true;
    text = await scrape(app);
    expect(text).not.toMatch(/^subscriptions_disabled\{/m);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
