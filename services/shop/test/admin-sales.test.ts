// The back office's sales figures: orders and revenue per day in the shop's time zone (proven
// across midnight and both daylight-saving changes in Berlin), every day of the range present,
// cancelled orders left out, exact money, the range's limits, and today's to-do counts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SalesFiguresResponseSchema } from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';
import { keyWith, staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;
let dime: number;

/**
 * Orders at chosen instants (UTC), each of `quantity` × 0.10. Berlin is UTC+1 (CET) until
 * 2026-03-29 01:00 UTC, then UTC+2 (CEST) until 2026-10-25 01:00 UTC.
 */
const ORDERS = {
  // 23:59:59.999 CET on 28 March: the 28th.
  lastOfMarch28: ['2026-03-28T22:59:59.999Z', 1],
  // 00:00 CET on 29 March, still the 28th in UTC: the 29th.
  firstOfMarch29: ['2026-03-28T23:00:00.000Z', 2],
  // 23:59:59.999 CEST on 29 March (the 23-hour day): the 29th.
  lastOfMarch29: ['2026-03-29T21:59:59.999Z', 1],
  // 00:00 CEST on 30 March; with the winter offset it would be 23:00 on the 29th: the 30th.
  firstOfMarch30: ['2026-03-29T22:00:00.000Z', 4],
  // Cancelled: never counted.
  cancelledMarch29: ['2026-03-29T12:00:00.000Z', 50],
  // 00:00 CEST on 25 October (the 25-hour day); with the winter offset, 23:00 on the 24th.
  firstOfOctober25: ['2026-10-24T22:00:00.000Z', 3],
  // 23:30 CET on 25 October; with the summer offset it would be 00:30 on the 26th.
  lastOfOctober25: ['2026-10-25T22:30:00.000Z', 5],
} as const;
const placed: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff');
  dime = await addProduct(t.app, 'Dime treat', '0.10', 1000);
  for (const [name, [at, quantity]] of Object.entries(ORDERS)) {
    const res = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: dime, quantity, price: 0.1 }]),
    });
    expect(res.statusCode).toBe(201);
    placed[name] = res.json().data.order_id as number;
    await t.app.db.order.update({ where: { id: placed[name] }, data: { createdAt: new Date(at) } });
  }
  const cancelled = await t.app.inject({
    method: 'POST',
    url: `/admin/orders/${placed.cancelledMarch29}/status`,
    headers: bearer(clerk.token),
    payload: { status: 'cancelled' },
  });
  expect(cancelled.statusCode).toBe(200);
  // Counted whatever the status now, as long as it is not cancelled.
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `/admin/orders/${placed.lastOfMarch29}/status`,
    headers: bearer(clerk.token),
    payload: { status: 'confirmed' },
  });
  expect(confirmed.statusCode).toBe(200);
});
afterAll(() => t.close());

const sales = (query: string, who: SignedInStaffMember = clerk, app: TestApp = t) =>
  app.app.inject({
    method: 'GET',
    url: `/admin/stats/sales${query}`,
    headers: bearer(who.token),
  });

describe('sales per day', () => {
  it('counts each order on its day in Berlin across midnight and the spring change, zeros included', async () => {
    const res = await sales('?from=2026-03-27&to=2026-03-31');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectContract(SalesFiguresResponseSchema, res.json());
    const data = res.json().data;
    expect(data).toMatchObject({
      from: '2026-03-27',
      to: '2026-03-31',
      time_zone: 'Europe/Berlin',
    });
    expect(data.days).toEqual([
      { date: '2026-03-27', orders: 0, revenue: 0 },
      { date: '2026-03-28', orders: 1, revenue: 0.1 },
      // 0.2 + 0.1: exact decimal sums, not 0.30000000000000004.
      { date: '2026-03-29', orders: 2, revenue: 0.3 },
      { date: '2026-03-30', orders: 1, revenue: 0.4 },
      { date: '2026-03-31', orders: 0, revenue: 0 },
    ]);
    expect(data.totals).toEqual({ orders: 4, revenue: 0.8 });
  });

  it('gives the 25-hour day of the autumn change all its orders', async () => {
    const { days } = (await sales('?from=2026-10-24&to=2026-10-26')).json().data;
    expect(days).toEqual([
      { date: '2026-10-24', orders: 0, revenue: 0 },
      { date: '2026-10-25', orders: 2, revenue: 0.8 },
      { date: '2026-10-26', orders: 0, revenue: 0 },
    ]);
  });

  it('counts the days of the configured time zone (SHOP_TIME_ZONE)', async () => {
    const utc = await createTestApp({ timeZone: 'UTC' });
    try {
      const admin = await staffMember(utc, 'admin');
      const product = await addProduct(utc.app, 'Dime treat', '0.10', 10);
      for (const [at, quantity] of [ORDERS.lastOfMarch28, ORDERS.firstOfMarch29]) {
        const res = await utc.request({
          method: 'POST',
          url: '/orders',
          payload: orderBody([{ product_id: product, quantity, price: 0.1 }]),
        });
        await utc.app.db.order.update({
          where: { id: res.json().data.order_id as number },
          data: { createdAt: new Date(at) },
        });
      }
      const { data } = (await sales('?from=2026-03-28&to=2026-03-29', admin, utc)).json();
      expect(data.time_zone).toBe('UTC');
      expect(data.days).toEqual([
        { date: '2026-03-28', orders: 2, revenue: 0.3 },
        { date: '2026-03-29', orders: 0, revenue: 0 },
      ]);
    } finally {
      await utc.close();
    }
  });

  it('defaults to the 30 days ending today in the shop’s time zone', async () => {
    const today = () =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    const before = today();
    const { data } = (await sales('')).json();
    expect([before, today()]).toContain(data.to);
    expect(data.days).toHaveLength(30);
    expect(data.days.at(-1).date).toBe(data.to);
    const from = new Date(Date.parse(`${data.to}T00:00:00Z`) - 29 * 86_400_000);
    expect(data.from).toBe(from.toISOString().slice(0, 10));
    // `to` alone: the 30 days ending that day.
    const { data: until } = (await sales('?to=2026-03-30')).json();
    expect([until.from, until.days.length]).toEqual(['2026-03-01', 30]);
  });

  it('refuses a range backwards, longer than 366 days, or dates that are not days (400)', async () => {
    expectShopError(await sales('?from=2026-03-02&to=2026-03-01'), 400, /after/);
    expectShopError(await sales('?from=2025-01-01&to=2026-01-02'), 400, /366 days/);
    const leap = await sales('?from=2024-01-01&to=2024-12-31');
    expect(leap.statusCode).toBe(200);
    expect(leap.json().data.days).toHaveLength(366);
    expectShopError(await sales('?from=2026-02-30&to=2026-03-01'), 400, /from/);
    expectShopError(await sales('?from=0000-01-01&to=0000-01-02'), 400, /from/);
    expectShopError(await sales('?from=2026-3-1'), 400, /from/);
    expectShopError(await sales('?to=2026-03-01T00:00:00Z'), 400, /to/);
    expectShopError(await sales('?days=7'), 400);
  });
});

describe('today’s to-do counts', () => {
  it('counts pending orders and active products without stock', async () => {
    const pendingBefore = await t.app.db.order.count({ where: { status: 'pending' } });
    const { todo } = (await sales('')).json().data;
    expect(todo).toEqual({ pending_orders: pendingBefore, products_out_of_stock: 0 });
    expect(pendingBefore).toBe(5);

    await addProduct(t.app, 'Sold out lead', '5.00', 0);
    await addProduct(t.app, 'Retired sold out lead', '5.00', 0, false);
    const lastOne = await addProduct(t.app, 'Last lead', '5.00', 1);
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: lastOne, quantity: 1, price: 5 }]),
    });
    expect(order.statusCode).toBe(201);
    const after = (await sales('')).json().data.todo;
    expect(after).toEqual({ pending_orders: pendingBefore + 1, products_out_of_stock: 2 });
  });
});

describe('who may read the figures', () => {
  it('opens to stats:read (every staff role, a key with the scope), nothing else', async () => {
    const viewer = await staffMember(t, 'viewer');
    expect((await sales('', viewer)).statusCode).toBe(200);
    const as = async (scopes: Array<'stats:read' | 'orders:read'>) =>
      t.app.inject({
        method: 'GET',
        url: '/admin/stats/sales',
        headers: { 'x-api-key': await keyWith(t, { kind: 'secret', scopes }) },
      });
    expect((await as(['stats:read'])).statusCode).toBe(200);
    expectShopError(await as(['orders:read']), 403, /stats:read/);
  });
});
