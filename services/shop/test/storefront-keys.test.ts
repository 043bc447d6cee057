// What a publishable key (a storefront's, visible to anyone who opens the browser's tools) can
// and cannot do, and how orders belong to customers and guests.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';
import { keyWith } from './support/staff.js';

let t: TestApp;
let pk: string;
let productId: number;
let ann: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  pk = await keyWith(t, { kind: 'publishable' });
  productId = await addProduct(t.app, 'Storefront lead', '12.50', 1_000);
  ann = await registerCustomer(t, { first_name: 'Ann' });
  bob = await registerCustomer(t, { first_name: 'Bob' });
});
afterAll(() => t.close());

const asStorefront = (headers: Record<string, string> = {}) => ({ 'x-api-key': pk, ...headers });

async function placeOrder(headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/orders',
    headers: asStorefront(headers),
    payload: orderBody([{ product_id: productId, quantity: 1, price: 12.5 }]),
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { order_id: number; access_token: string };
}

const readOrder = (id: number, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/orders/${id}`, headers: asStorefront(headers) });

/** The token with its last character changed (to one it surely is not). */
const oneCharacterOff = (token: string) => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

/** A 404's body with its order id taken out, to compare a refusal with a missing order. */
const withoutId = (res: { statusCode: number; body: string }) => ({
  status: res.statusCode,
  body: res.body.replace(/\d+/g, 'N'),
});

describe('a publishable key', () => {
  it('browses, registers, logs in, orders and subscribes', async () => {
    for (const url of ['/products', `/products/${productId}`, '/categories']) {
      expect((await t.app.inject({ method: 'GET', url, headers: asStorefront() })).statusCode).toBe(
        200,
      );
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/customers/login',
      headers: asStorefront(),
      payload: { email: ann.email, password: ann.password },
    });
    expect(login.statusCode).toBe(200);
    const subscribe = await t.app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: asStorefront(),
      payload: { email: 'storefront@example.com' },
    });
    expect(subscribe.statusCode).toBe(201);
    await placeOrder();
  });

  it('changes no status, reads no event feed, registers no webhook and reads no stats: 403', async () => {
    const { order_id } = await placeOrder();
    const refused = [
      { method: 'PUT' as const, url: `/orders/${order_id}`, payload: { status: 'cancelled' } },
      { method: 'GET' as const, url: '/events' },
      { method: 'GET' as const, url: '/webhooks' },
      {
        method: 'POST' as const,
        url: '/webhooks',
        payload: { url: 'https://93.184.215.14/hook', events: ['*'] },
      },
      { method: 'GET' as const, url: '/stats' },
      { method: 'GET' as const, url: '/admin/staff' },
      { method: 'GET' as const, url: '/admin/api-keys' },
    ];
    for (const request of refused) {
      const res = await t.app.inject({ ...request, headers: asStorefront() });
      expectShopError(res, 403, /publishable key cannot open this operation/);
    }
    const order = await t.app.db.order.findUniqueOrThrow({ where: { id: order_id } });
    expect(order.status).toBe('pending');
  });

  it('reads an order with its token or beside its owner’s token, and otherwise gets the 404 of a missing order', async () => {
    const guest = await placeOrder();
    const other = await placeOrder();
    const owned = await placeOrder(bearer(ann.token));
    const missing = withoutId(await readOrder(2_000_000_000));
    expect(missing.status).toBe(404);

    const withToken = await readOrder(guest.order_id, { 'x-order-token': guest.access_token });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.json().data.id).toBe(guest.order_id);
    expect((await readOrder(owned.order_id, bearer(ann.token))).statusCode).toBe(200);

    for (const refused of [
      await readOrder(guest.order_id),
      await readOrder(guest.order_id, { 'x-order-token': other.access_token }),
      await readOrder(guest.order_id, { 'x-order-token': oneCharacterOff(guest.access_token) }),
      await readOrder(owned.order_id, bearer(bob.token)),
      await readOrder(owned.order_id),
    ]) {
      expect(withoutId(refused)).toEqual(missing);
    }
  });

  it('gets a 401 for a customer token that is not valid beside it, and the order is not placed', async () => {
    const before = await t.app.db.order.count();
    const res = await t.app.inject({
      method: 'POST',
      url: '/orders',
      headers: asStorefront({ authorization: 'Bearer not.a.token' }),
      payload: orderBody([{ product_id: productId, quantity: 1, price: 12.5 }]),
    });
    expectShopError(res, 401);
    expect(await t.app.db.order.count()).toBe(before);
  });
});

describe('a secret key', () => {
  it('with orders:read reads any order; without it, only with the order’s token', async () => {
    const { order_id, access_token } = await placeOrder();
    const reader = await keyWith(t, { kind: 'secret', scopes: ['orders:read'] });
    const writer = await keyWith(t, { kind: 'secret', scopes: ['orders:write'] });
    const read = (key: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/orders/${order_id}`,
        headers: { 'x-api-key': key, ...headers },
      });
    expect((await read(reader)).statusCode).toBe(200);
    expect((await read(writer)).statusCode).toBe(404);
    expect((await read(writer, { 'x-order-token': access_token })).statusCode).toBe(200);
    const status = await t.app.inject({
      method: 'PUT',
      url: `/orders/${order_id}`,
      headers: { 'x-api-key': reader },
      payload: { status: 'confirmed' },
    });
    expectShopError(status, 403, /lacks the scope orders:write/);
  });
});

describe("a customer's own orders", () => {
  it('lists the orders placed with the customer’s token, newest first, page by page, and never another’s', async () => {
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push((await placeOrder(bearer(bob.token))).order_id);
    await placeOrder(); // a guest's
    const first = await t.app.inject({
      method: 'GET',
      url: `/customers/${bob.id}/orders?limit=2`,
      headers: bearer(bob.token),
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    const page1 = first.json<{
      data: Array<{ id: number }>;
      pagination: { next_cursor: string };
    }>();
    const second = await t.app.inject({
      method: 'GET',
      url: `/customers/${bob.id}/orders?limit=2&cursor=${page1.pagination.next_cursor}`,
      headers: bearer(bob.token),
    });
    const page2 = second.json<{
      data: Array<{ id: number }>;
      pagination: { next_cursor: null };
    }>();
    expect([...page1.data, ...page2.data].map((o) => o.id)).toEqual([...placed].reverse());
    expect(page2.pagination.next_cursor).toBeNull();

    const others = await t.app.inject({
      method: 'GET',
      url: `/customers/${bob.id}/orders`,
      headers: bearer(ann.token),
    });
    expectShopError(others, 403);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/customers/${bob.id}/orders?cursor=bm90LWEtY3Vyc29y`,
      headers: bearer(bob.token),
    });
    expectShopError(forged, 400, /cursor/);
  });
});
