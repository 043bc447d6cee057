import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { metricSample, scrapeMetrics } from '@dogshop/api-fuzz/service-suite';
import { createTestApp, type TestApp } from './support/app.js';
import { addProduct, orderBody } from './support/orders.js';

let t: TestApp;
let productId: number;

beforeAll(async () => {
  t = await createTestApp();
  productId = await addProduct(t.app, 'Metered collar', '12.50', 3);
});
afterAll(() => t.close());

/** GET /metrics, without credentials (service-kit's suite's helpers, as both services scrape). */
const scrape = (of: TestApp = t) => scrapeMetrics(of.app);
const sample = metricSample;

const order = (quantity: number, key?: string) =>
  t.request({
    method: 'POST',
    url: '/orders',
    payload: orderBody([{ product_id: productId, quantity, price: 12.5 }]),
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('GET /metrics', () => {
  it('times the requests by route pattern and reads the pg pool', async () => {
    const before = await scrape();
    const series =
      'http_request_duration_seconds_count{method="GET",route="/products/:id",status_code="200"}';
    expect((await t.request({ url: `/products/${productId}` })).statusCode).toBe(200);
    const after = await scrape();
    expect(sample(after, series)).toBe(sample(before, series) + 1);
    expect(after).not.toContain(`/products/${productId}"`);
    // The pool the app's queries went through: its connections stay open (idle) between them.
    expect(sample(after, 'db_pool_max_connections')).toBe(5);
    expect(sample(after, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'db_pool_connections{state="in_use"}')).toBe(0);
    expect(after).toContain('db_pool_connections{state="waiting"} 0');
    expect(after).toContain('nodejs_eventloop_lag_p99_seconds');
    // For the scraper only: not in the public API document.
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/metrics']).toBeUndefined();
  });

  it('counts placed and refused orders; a replayed Idempotency-Key counts once', async () => {
    const before = await scrape();
    expect((await order(1, 'metrics-order-1')).statusCode).toBe(201);
    expect((await order(1, 'metrics-order-1')).headers['idempotent-replayed']).toBe('true');
    const refused = await order(50);
    expect(refused.statusCode).toBe(409);
    const after = await scrape();
    expect(sample(after, 'orders_placed_total')).toBe(sample(before, 'orders_placed_total') + 1);
    const outOfStock = 'orders_refused_total{reason="out_of_stock"}';
    expect(sample(after, outOfStock)).toBe(sample(before, outOfStock) + 1);
    const created =
      'http_request_duration_seconds_count{method="POST",route="/orders",status_code="201"}';
    expect(sample(after, created)).toBe(sample(before, created) + 2);
  });

  it('counts failed logins', async () => {
    const before = sample(await scrape(), 'logins_failed_total');
    const res = await t.request({
      method: 'POST',
      url: '/customers/login',
      payload: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(res.statusCode).toBe(401);
    expect(sample(await scrape(), 'logins_failed_total')).toBe(before + 1);
  });
});

describe('load shedding', () => {
  it('answers 503 with Retry-After while more queries wait for a pooled connection than allowed; /health stays 200', async () => {
    const busy = await createTestApp({ databasePoolMax: 1, pressureMaxPoolWaiting: 1 });
    try {
      // One connection, three slow queries: two wait for it (a Prisma query starts when awaited).
      const sleeps = [1, 2, 3].map(async () => busy.app.db.$queryRaw`SELECT 1 FROM pg_sleep(1.5)`);
      await new Promise((resolve) => setTimeout(resolve, 800)); // one sample (every 500 ms) later
      expect(sample(await scrape(busy), 'db_pool_connections{state="waiting"}')).toBe(2);
      const refused = await busy.request({ url: '/categories' });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({
        success: false,
        error: 'Service overloaded, retry later',
        status_code: 503,
      });
      expect((await busy.app.inject({ url: '/health' })).statusCode).toBe(200);
      await Promise.all(sleeps);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await busy.request({ url: '/categories' })).statusCode).toBe(200);
    } finally {
      await busy.close();
    }
  });
});
