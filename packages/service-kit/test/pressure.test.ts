import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ConfigError, commonEnv, loadConfig } from '../src/config.js';
import { errorEnvelope } from '../src/error-envelope.js';
import { healthRoutes } from '../src/health.js';
import { prometheusMetrics, type PoolStats } from '../src/metrics.js';
import { loadShedding, type LoadSheddingOptions } from '../src/pressure.js';
import { serverOptions } from '../src/server-options.js';

const OVERLOADED = 'Service overloaded, retry later';

const apps: FastifyInstance[] = [];
let stopBusy = () => {};
afterEach(async () => {
  stopBusy();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The shared stack with load shedding sampled every 50 ms, and one API route. */
async function buildApp(shedding: Partial<LoadSheddingOptions>): Promise<FastifyInstance> {
  const app = Fastify(serverOptions({ logLevel: 'silent' }));
  apps.push(app);
  await app.register(errorEnvelope, {
    body: (status_code, error) => ({ success: false, error, status_code }),
  });
  await app.register(prometheusMetrics);
  await app.register(loadShedding, {
    maxEventLoopDelayMs: 0,
    maxPoolWaiting: 0,
    message: OVERLOADED,
    sampleIntervalMs: 50,
    ...shedding,
  });
  await app.register(healthRoutes, { isReady: async () => true });
  app.get('/work', async () => ({ success: true }));
  await app.ready();
  return app;
}

/** Keeps the event loop blocked in 80 ms slices until stopped (other work runs in between). */
function blockEventLoop(sliceMs = 80): () => void {
  let running = true;
  const slice = () => {
    if (!running) return;
    const end = Date.now() + sliceMs;
    while (Date.now() < end) {
      // busy: nothing else runs on this thread meanwhile
    }
    setImmediate(slice);
  };
  setImmediate(slice);
  return () => {
    running = false;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
}

describe('loadShedding', () => {
  it('answers 503 with Retry-After in the envelope while the event loop lags; /health stays 200', async () => {
    const app = await buildApp({ maxEventLoopDelayMs: 40 });
    expect((await app.inject({ url: '/work' })).statusCode).toBe(200);

    stopBusy = blockEventLoop();
    await sleep(400); // a few samples, all taken while the loop is blocked
    const refused = await app.inject({ url: '/work' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({ success: false, error: OVERLOADED, status_code: 503 });
    const unknown = await app.inject({ url: '/nowhere' });
    expect(unknown.statusCode).toBe(503);
    // Liveness is never shed; readiness is, with its own body, so a balancer routes elsewhere.
    const health = await app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    const ready = await app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toEqual({ status: 'overloaded' });
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^http_requests_shed_total\{reason="event_loop"\} [1-9]/m);
    stopBusy();

    await waitFor(async () => (await app.inject({ url: '/work' })).statusCode === 200);
  });

  it('answers 503 while more operations wait for a database connection than allowed', async () => {
    const pool: PoolStats = { max: 5, inUse: 5, idle: 0, waiting: 0 };
    const app = await buildApp({ maxPoolWaiting: 3, poolStats: () => pool });
    expect((await app.inject({ url: '/work' })).statusCode).toBe(200);

    pool.waiting = 4;
    await waitFor(async () => (await app.inject({ url: '/work' })).statusCode === 503);
    const refused = await app.inject({ url: '/work' });
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({ success: false, error: OVERLOADED, status_code: 503 });
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/metrics' })).body).toMatch(
      /^http_requests_shed_total\{reason="db_pool"\} [1-9]/m,
    );

    pool.waiting = 3; // at the limit is still served
    await waitFor(async () => (await app.inject({ url: '/work' })).statusCode === 200);
  });

  it('sheds nothing when both limits are 0', async () => {
    const pool: PoolStats = { max: 5, inUse: 5, idle: 0, waiting: 1_000 };
    const app = await buildApp({ poolStats: () => pool });
    stopBusy = blockEventLoop();
    await sleep(300);
    expect((await app.inject({ url: '/work' })).statusCode).toBe(200);
  });

  it('reads its limits from PRESSURE_MAX_EVENT_LOOP_DELAY_MS and PRESSURE_MAX_POOL_WAITING', () => {
    const schema = Type.Object(
      commonEnv({ port: 3000, jwtTtl: '1h', dataDir: '.data', authRateLimitPerMinute: 10 }),
    );
    expect(loadConfig(schema, {})).toMatchObject({
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: 1000,
      PRESSURE_MAX_POOL_WAITING: 100,
    });
    expect(
      loadConfig(schema, {
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
        PRESSURE_MAX_POOL_WAITING: '40',
      }),
    ).toMatchObject({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: 0, PRESSURE_MAX_POOL_WAITING: 40 });
    expect(() => loadConfig(schema, { PRESSURE_MAX_POOL_WAITING: '1e2' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '-1' })).toThrow(
      /PRESSURE_MAX_EVENT_LOOP_DELAY_MS/,
    );
  });
});
