// HTTP caching of the catalogue reads: strong ETags, 304 on If-None-Match, `private, no-cache`
// (the answers need the API key, so no shared cache may keep them), and a new ETag as soon as the
// data changes through the shop's own operations.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { importCatalogue } from '../src/modules/catalogue-import/service.js';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { bearer, registerCustomer } from './support/customers.js';
import { orderBody } from './support/orders.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;
beforeAll(async () => {
  t = await createTestApp();
  ids = await seedCatalogue(t.app);
});
afterAll(() => t.close());

const CATALOGUE = 'private, no-cache';
const STRONG_ETAG = /^"[A-Za-z0-9_-]{43}"$/;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url, headers });

/** The answer is cacheable as a catalogue read, and a revalidation with its ETag gets a 304. */
async function expectRevalidates(url: string): Promise<LightMyRequestResponse> {
  const res = await get(url);
  expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
  expect(res.headers.etag).toMatch(STRONG_ETAG);
  expect(res.headers['cache-control']).toBe(CATALOGUE);
  const again = await get(url, { 'if-none-match': res.headers.etag as string });
  expect({ url, status: again.statusCode }).toEqual({ url, status: 304 });
  expect(again.rawPayload.length).toBe(0);
  expect(again.headers.etag).toBe(res.headers.etag);
  expect(again.headers['cache-control']).toBe(CATALOGUE);
  return res;
}

/** After a change, the old ETag gets the new answer (200 with a different ETag). */
async function expectChanged(url: string, before: LightMyRequestResponse) {
  const res = await get(url, { 'if-none-match': before.headers.etag as string });
  expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
  expect(res.headers.etag).toMatch(STRONG_ETAG);
  expect(res.headers.etag).not.toBe(before.headers.etag);
  expect(res.body).not.toBe(before.body);
  return res;
}

describe('catalogue reads', () => {
  it('carry a strong ETag and private, no-cache, and answer 304 to a matching If-None-Match', async () => {
    const lead = ids.productId('Red tracking lead');
    for (const url of [
      '/products',
      '/products?limit=2&sort=price_asc&search=lead',
      `/products?category=${ids.categoryId('Dogs')}`,
      `/products/${lead}`,
      `/products/${lead}/reviews`,
      '/categories',
    ]) {
      await expectRevalidates(url);
    }
  });

  it('answer the same ETag for the same data (what every replica computes) and 200 to another', async () => {
    const a = await get('/products');
    const b = await get('/products');
    expect(b.headers.etag).toBe(a.headers.etag);
    const other = await get('/products', { 'if-none-match': '"not-this-one"' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(a.body);
    const weak = await get('/products', { 'if-none-match': `W/${a.headers.etag as string}` });
    expect(weak.statusCode).toBe(304); // what comes back after a gzipping proxy weakened it
  });

  it('refuse without the key before any 304, and 404s carry no ETag', async () => {
    const ok = await get('/products');
    const refused = await t.app.inject({
      method: 'GET',
      url: '/products',
      headers: { 'if-none-match': ok.headers.etag as string },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers.etag).toBeUndefined();
    const missing = await get('/products/999999', { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('change their ETag when a new review arrives (detail, reviews page)', async () => {
    const product = ids.productId('Blue lead');
    const detail = await expectRevalidates(`/products/${product}`);
    const reviews = await expectRevalidates(`/products/${product}/reviews`);
    const customer = await registerCustomer(t);
    const created = await t.app.inject({
      method: 'POST',
      url: `/products/${product}/reviews`,
      headers: bearer(customer.token),
      payload: { rating: 4, title: 'Solid lead', comment: 'Holds a strong dog without fuss.' },
    });
    expect(created.statusCode).toBe(201);
    await expectChanged(`/products/${product}`, detail);
    const after = await expectChanged(`/products/${product}/reviews`, reviews);
    expect(after.body).toContain('Solid lead');
  });

  it('change their ETag when an order moves the stock (list, detail)', async () => {
    const product = ids.productId('Dog bowl');
    const list = await expectRevalidates('/products');
    const detail = await expectRevalidates(`/products/${product}`);
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: product, quantity: 2, price: 9.5 }]),
    });
    expect(order.statusCode).toBe(201);
    const listAfter = await expectChanged('/products', list);
    const bowl = (listAfter.json().data as Array<{ id: number; stock: number }>).find(
      (p) => p.id === product,
    );
    expect(bowl?.stock).toBe(98);
    await expectChanged(`/products/${product}`, detail);
  });

  it('change their ETag when the categories change (categories)', async () => {
    const before = await expectRevalidates('/categories');
    await importCatalogue(t.app.db, {
      categories: [{ name: 'Whistles', description: 'Dog whistles', parent: null, sort_order: 4 }],
      products: [],
    });
    const after = await expectChanged('/categories', before);
    expect(after.body).toContain('Whistles');
  });
});

describe('personal answers', () => {
  it('stay private, no-store without an ETag, even with If-None-Match', async () => {
    const customer = await registerCustomer(t);
    const product = ids.productId('Binoculars 8x42');
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: product, quantity: 1, price: 499 }]),
    });
    const orderId = (order.json().data as { order_id: number }).order_id;
    for (const res of [
      order,
      await get(`/orders/${orderId}`, { 'if-none-match': '*' }),
      await t.app.inject({
        method: 'GET',
        url: `/customers/${customer.id}/profile`,
        headers: { ...bearer(customer.token), 'if-none-match': '*' },
      }),
    ]) {
      expect(res.statusCode).toBeLessThan(300);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers.etag).toBeUndefined();
    }
  });
});
