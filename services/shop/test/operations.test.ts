// The shop's own operations: its OpenAPI document, the 500 mask, the rate limit behind a proxy.
// /health, /ready, GET /, /docs, 404/400/415/413 in the envelope, the global 429 and request ids
// are service-kit's: service-kit.test.ts, the suite both services share.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations endpoints', () => {
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
});

describe('error envelope', () => {
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

describe('rate limiting', () => {
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
