import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { metricSample, scrapeMetrics } from '@dogshop/api-fuzz/service-suite';
import { MESSAGES } from '../src/messages.js';
import { ADMIN, createTestApp, type TestApp } from './support/app.js';
import { createHandler } from './support/handlers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await createHandler(t, { name: 'Metrik Meier', phone: '0171 1', address: 'Weg 1, 12345 Ort' });
});
afterAll(() => t.close());

/** GET /metrics, without credentials (service-kit's suite's helpers, as both services scrape). */
const scrape = (of: TestApp = t) => scrapeMetrics(of.app);
const sample = metricSample;

describe('GET /metrics', () => {
  it('times the requests by route pattern and reads the driver pool', async () => {
    const before = await scrape();
    const series =
      'http_request_duration_seconds_count{method="GET",route="/api/users/:id",status_code="404"}';
    const missing = await t.request({ url: '/api/users/0123456789abcdef01234567', as: t.admin });
    expect(missing.statusCode).toBe(404);
    const after = await scrape();
    expect(sample(after, series)).toBe(sample(before, series) + 1);
    expect(after).not.toContain('0123456789abcdef01234567');
    // The pool the app's operations went through: its connections stay open (idle) between them.
    expect(sample(after, 'db_pool_max_connections')).toBe(10);
    expect(sample(after, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'db_pool_connections{state="in_use"}')).toBe(0);
    expect(after).toContain('db_pool_connections{state="waiting"} 0');
    // For the scraper only: not in the public API document.
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/metrics']).toBeUndefined();
  });

  it('counts exports by format', async () => {
    const csv = 'exports_total{format="csv"}';
    const json = 'exports_total{format="json"}';
    const before = await scrape();
    const res = await t.request({ url: '/api/users/export?format=csv', as: t.viewer });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Metrik Meier');
    expect((await t.request({ url: '/api/users/export', as: t.viewer })).statusCode).toBe(200);
    const after = await scrape();
    expect(sample(after, csv)).toBe(sample(before, csv) + 1);
    expect(sample(after, json)).toBe(sample(before, json) + 1);
  });

  it('counts failed and throttled logins', async () => {
    const before = await scrape();
    const wrong = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: 'not the password' },
      });
    // The test app allows 5 failures per address and username; the 6th attempt is refused.
    for (let i = 0; i < 5; i++) expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(429);
    const after = await scrape();
    expect(sample(after, 'logins_failed_total')).toBe(sample(before, 'logins_failed_total') + 5);
    expect(sample(after, 'logins_throttled_total')).toBe(
      sample(before, 'logins_throttled_total') + 1,
    );
  });
});

describe('load shedding', () => {
  it('answers 503 in German with Retry-After while the event loop lags; /health stays 200', async () => {
    // Far above what building the app and logging in lag the loop by, far below the slices.
    const busy = await createTestApp({ pressureMaxEventLoopDelayMs: 200 });
    let blocking = true;
    const slice = () => {
      if (!blocking) return;
      const end = Date.now() + 300;
      while (Date.now() < end) {
        // busy: the event loop lags by 300 ms per turn
      }
      setImmediate(slice);
    };
    try {
      setImmediate(slice);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // two samples (every 500 ms)
      const refused = await busy.request({ url: '/api/users', as: busy.viewer });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({ success: false, message: MESSAGES.overloaded });
      expect((await busy.app.inject({ url: '/health' })).statusCode).toBe(200);
      blocking = false;
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await busy.request({ url: '/api/users', as: busy.viewer })).statusCode).toBe(200);
    } finally {
      blocking = false;
      await busy.close();
    }
  });
});
