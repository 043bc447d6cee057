// The back office's customers: finding them by a part of the e-mail address or name, page by
// page with an exact total, and a customer with addresses and their orders, never a secret.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AdminCustomerDetailResponseSchema,
  AdminCustomerListResponseSchema,
} from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';
import { keyWith, staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;
let viewer: SignedInStaffMember;
let productId: number;
const customers: Record<string, RegisteredCustomer> = {};

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff');
  viewer = await staffMember(t, 'viewer');
  productId = await addProduct(t.app, 'Customer list lead', '12.50', 1000);
  // Registered one after the other: the list shows them newest first.
  const people = [
    ['jana', 'Jana.Johannsen@Example.com', 'Jana', 'Johannsen'],
    ['otto', 'otto@example.org', 'Otto', 'Ölmann'],
    ['percent', 'p100@example.net', 'Per', '100%_Sure'],
  ] as const;
  for (const [key, email, first_name, last_name] of people) {
    customers[key] = await registerCustomer(t, { email, first_name, last_name });
  }
});
afterAll(() => t.close());

const get = (url: string, who: SignedInStaffMember = clerk) =>
  t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
const emails = (res: { json: () => unknown }) =>
  (res.json() as { data: Array<{ email: string }> }).data.map((c) => c.email);

describe('the customer list', () => {
  it('lists newest first with the exact total, page by page', async () => {
    const first = await get('/admin/customers?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expectContract(AdminCustomerListResponseSchema, first.json());
    const body = first.json<{ pagination: { total: number; next_cursor: string } }>();
    expect(emails(first)).toEqual(['p100@example.net', 'otto@example.org']);
    expect(body.pagination.total).toBe(3);
    const second = await get(`/admin/customers?limit=2&cursor=${body.pagination.next_cursor}`);
    expect(emails(second)).toEqual(['jana.johannsen@example.com']);
    expect(second.json().pagination).toEqual({ limit: 2, next_cursor: null, total: 3 });
  });

  it('finds customers by a part of the e-mail address or name, case ignored, with its total', async () => {
    const find = async (q: string) => {
      const res = await get(`/admin/customers?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return { emails: emails(res), total: res.json().pagination.total as number };
    };
    expect(await find('JOHANNSEN@EXAMPLE')).toEqual({
      emails: ['jana.johannsen@example.com'],
      total: 1,
    });
    expect((await find('ölmann')).emails).toEqual(['otto@example.org']);
    expect((await find('jana johannsen')).emails).toEqual(['jana.johannsen@example.com']);
    // `%` and `_` are literal characters, not wildcards.
    expect((await find('100%_')).emails).toEqual(['p100@example.net']);
    expect(await find('%')).toEqual({ emails: ['p100@example.net'], total: 1 });
    expect(await find('_')).toEqual({ emails: ['p100@example.net'], total: 1 });
    expect(await find('nobody')).toEqual({ emails: [], total: 0 });
    const example = await find('example.');
    expect(example.total).toBe(3);
    // A page of a search continues the search.
    const page = await get('/admin/customers?q=example.&limit=1');
    const next = page.json().pagination.next_cursor as string;
    expect(emails(await get(`/admin/customers?q=example.&limit=5&cursor=${next}`))).toEqual([
      'otto@example.org',
      'jana.johannsen@example.com',
    ]);
  });

  it('refuses a cursor it did not give, and another list’s cursor, with 400', async () => {
    expectShopError(await get('/admin/customers?cursor=bm9wZQ'), 400, /cursor/);
    const foreign = Buffer.from(
      JSON.stringify(['reviews', '2026-01-01T00:00:00.000Z', 1]),
    ).toString('base64url');
    expectShopError(await get(`/admin/customers?cursor=${foreign}`), 400, /cursor/);
    const outOfRange = Buffer.from(
      JSON.stringify(['customers', '-271821-04-20T00:00:00.000Z', 1]),
    ).toString('base64url');
    expectShopError(await get(`/admin/customers?cursor=${outOfRange}`), 400, /cursor/);
    const bigId = Buffer.from(
      JSON.stringify(['customers', '2026-01-01T00:00:00.000Z', 2 ** 40]),
    ).toString('base64url');
    expectShopError(await get(`/admin/customers?cursor=${bigId}`), 400, /cursor/);
    expectShopError(await get('/admin/customers?limit=0'), 400);
    expectShopError(await get('/admin/customers?sort=name'), 400);
  });
});

describe('a customer in the back office', () => {
  it('shows the profile, the addresses and the orders newest first, never a secret', async () => {
    const jana = customers.jana!;
    const address = await t.app.inject({
      method: 'POST',
      url: `/customers/${jana.id}/addresses`,
      headers: bearer(jana.token),
      payload: {
        first_name: 'Jana',
        last_name: 'Johannsen',
        address: 'Am Sande 1',
        city: 'Lüneburg',
        postal_code: '21335',
        country: 'DE',
        is_default: true,
      },
    });
    expect(address.statusCode).toBe(201);
    const placed: number[] = [];
    for (const quantity of [1, 2, 3]) {
      const order = await t.request({
        method: 'POST',
        url: '/orders',
        headers: bearer(jana.token),
        payload: orderBody([{ product_id: productId, quantity, price: 12.5 }], {
          customer_email: jana.email,
        }),
      });
      expect(order.statusCode).toBe(201);
      placed.push(order.json().data.order_id as number);
    }
    // A guest's order with the same e-mail address is not the customer's.
    const guest = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: productId, quantity: 1, price: 12.5 }], {
        customer_email: jana.email,
      }),
    });
    expect(guest.statusCode).toBe(201);

    const res = await get(`/admin/customers/${jana.id}`, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectContract(AdminCustomerDetailResponseSchema, res.json());
    const data = res.json().data;
    expect(data).toMatchObject({
      id: jana.id,
      email: 'jana.johannsen@example.com',
      first_name: 'Jana',
      last_name: 'Johannsen',
      newsletter: false,
      order_count: 3,
      addresses: [expect.objectContaining({ city: 'Lüneburg', is_default: true })],
    });
    expect(data.last_login).toEqual(expect.any(String));
    expect(data.orders).toEqual(
      [...placed].reverse().map((id, i) => ({
        id,
        status: 'pending',
        total_amount: [37.5, 25, 12.5][i],
        created_at: expect.any(String),
      })),
    );
    // Nothing of the password or a token, under any name.
    expect(res.body).not.toMatch(/password|hash|token|\$argon2/i);
  });

  it('shows a customer without addresses or orders, and 404 for an id nobody has', async () => {
    const res = await get(`/admin/customers/${customers.otto!.id}`);
    expect(res.json().data).toMatchObject({ addresses: [], orders: [], order_count: 0 });
    expectShopError(await get('/admin/customers/2000000000'), 404, /Customer 2000000000 not found/);
    expectShopError(await get('/admin/customers/0'), 400);
    expectShopError(await get('/admin/customers/abc'), 400);
  });
});

describe('who may read customers', () => {
  it('opens to customers:read (staff, viewer, a key with the scope), nothing else', async () => {
    const admin = await staffMember(t, 'admin');
    expect((await get('/admin/customers', admin)).statusCode).toBe(200);
    const withScope = await keyWith(t, { kind: 'secret', scopes: ['customers:read'] });
    const withOther = await keyWith(t, { kind: 'secret', scopes: ['orders:read'] });
    const publishable = await keyWith(t, { kind: 'publishable' });
    const as = (key: string) =>
      t.app.inject({ method: 'GET', url: '/admin/customers', headers: { 'x-api-key': key } });
    expect((await as(withScope)).statusCode).toBe(200);
    expectShopError(await as(withOther), 403, /lacks the scope customers:read/);
    expectShopError(await as(publishable), 403);
    // A customer's own token is no staff token.
    const own = await t.app.inject({
      method: 'GET',
      url: `/admin/customers/${customers.jana!.id}`,
      headers: bearer(customers.jana!.token),
    });
    expectShopError(own, 401);
  });
});
