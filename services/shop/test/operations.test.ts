import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations endpoints', () => {
  it('answers /health and /ready without an API key', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe('ok');
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers GET / without an API key with a pointer to the documentation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    });
    const docs = await t.app.inject({ method: 'GET', url: res.json().docs });
    expect(docs.statusCode).toBeLessThan(400);
  });

  it('serves the OpenAPI document with both security schemes and every spec operation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'ApiKeyAuth',
      'BearerAuth',
      'StaffAuth',
    ]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/products', '/products/{id}', '/categories', '/stats']),
    );
  });

  it('serves the interactive docs at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    // Served over plain http behind a gateway, the page must not demand https for its assets.
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
  });
});

describe('error envelope', () => {
  it('answers unknown routes with 404 in the envelope', async () => {
    expectShopError(await t.request({ method: 'GET', url: '/nope' }), 404);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload: '{"customer_name": ',
    });
    expectShopError(res, 400);
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expectShopError(res, 415);
  });

  it('answers bodies over 100 kB with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', first_name: 'x'.repeat(110_000) }),
    });
    expectShopError(res, 413);
  });

  it('masks unexpected failures as a generic 500 without details', async () => {
    const { buildApp } = await import('../src/app.js');
    const app = await buildApp(t.config);
    app.get('/boom', async () => {
      throw new Error('relation "secret_table" does not exist');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expectShopError(res, 500, /^Internal server error$/);
    expect(res.body).not.toMatch(/secret_table|at /);
  });
});

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and generates one otherwise', async () => {
    const echoed = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await t.app.inject({ method: 'GET', url: '/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'x'.repeat(300) },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After in the envelope once the limit is spent', async () => {
    const limited = await createTestApp({ rateLimitPerMinute: 2 });
    try {
      await limited.request({ method: 'GET', url: '/categories' });
      await limited.request({ method: 'GET', url: '/categories' });
      const res = await limited.request({ method: 'GET', url: '/categories' });
      expectShopError(res, 429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('counts clients by X-Forwarded-For only when a proxy hop is trusted', async () => {
    const from = (ip: string) => ({
      method: 'GET' as const,
      url: '/categories',
      headers: { 'x-forwarded-for': ip },
    });
    const direct = await createTestApp({ rateLimitPerMinute: 1 });
    const proxied = await createTestApp({ rateLimitPerMinute: 1, trustProxyHops: 1 });
    try {
      // Direct clients cannot dodge the limit by forging the header.
      expect((await direct.request(from('203.0.113.1'))).statusCode).toBe(200);
      expectShopError(await direct.request(from('203.0.113.2')), 429);
      // Behind the gateway, each client has its own budget.
      expect((await proxied.request(from('203.0.113.1'))).statusCode).toBe(200);
      expect((await proxied.request(from('203.0.113.2'))).statusCode).toBe(200);
      expectShopError(await proxied.request(from('203.0.113.1')), 429);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });
});
