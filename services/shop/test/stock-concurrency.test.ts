// Stock under concurrency: orders, adjustments and cancellations on one product at the same time
// end with the exact stock, never below 0, and the product's movements add up to it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { bearer } from './support/customers.js';
import { holdProducts, lockWaiters } from './support/locks.js';
import { addProduct, orderBody, stockOf } from './support/orders.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff');
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(clerk.token), ...(payload ? { payload } : {}) });

describe('one hot product', () => {
  it('50 concurrent orders, adjustments and cancellations leave the exact stock, and movements add up to it', async () => {
    const category = (await admin('POST', '/admin/categories', { name: 'Hot' })).json().data.id;
    const created = await admin('POST', '/admin/products', {
      name: 'Hot lead',
      price: 10,
      category_id: category,
      stock: 20,
    });
    const id = created.json().data.id as number;
    // Two orders to cancel during the run.
    const toCancel: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/orders',
        payload: orderBody([{ product_id: id, quantity: 2, price: 10 }]),
      });
      toCancel.push(res.json().data.order_id);
    }
    // Stock is now 16. Thirty orders of 1, ten takings of 2 (reason: damaged), eight additions of
    // 3, two cancellations of 2: more is wanted than there is, so some must be refused.
    const jobs = [
      ...Array.from(
        { length: 30 },
        () => () =>
          t.request({
            method: 'POST',
            url: '/orders',
            payload: orderBody([{ product_id: id, quantity: 1, price: 10 }]),
          }),
      ),
      ...Array.from(
        { length: 10 },
        () => () => admin('POST', `/admin/products/${id}/stock`, { delta: -2, reason: 'damaged' }),
      ),
      ...Array.from(
        { length: 8 },
        () => () => admin('POST', `/admin/products/${id}/stock`, { delta: 3, reason: 'delivery' }),
      ),
      ...toCancel.map(
        (orderId) => () =>
          admin('POST', `/admin/orders/${orderId}/status`, { status: 'cancelled' }),
      ),
    ];
    expect(jobs).toHaveLength(50);
    const answers = await Promise.all(jobs.map((job) => job()));
    const status = answers.map((a) => a.statusCode);
    // Each is accepted or refused for want of stock; nothing else.
    for (const [i, code] of status.entries()) {
      expect([200, 201, 409]).toContain(code);
      if (code === 409 && i >= 40)
        throw new Error(`an addition or cancellation was refused: ${answers[i]!.body}`);
    }
    const sold = status.slice(0, 30).filter((c) => c === 201).length;
    const taken = status.slice(30, 40).filter((c) => c === 200).length;
    expect(sold + taken).toBeGreaterThan(0);
    expect(status.filter((c) => c === 409).length).toBeGreaterThan(0);
    const expected = 16 - sold - 2 * taken + 8 * 3 + 2 * 2;
    expect(expected).toBeGreaterThanOrEqual(0);
    expect(await stockOf(t.app, id)).toBe(expected);

    const movements = await t.app.db.stockMovement.findMany({
      where: { productId: id },
      orderBy: { id: 'asc' },
    });
    expect(movements.reduce((sum, m) => sum + m.delta, 0)).toBe(expected);
    // Written in commit order of each row's lock: every movement's stock is the one before plus its delta, never below 0.
    let running = 0;
    for (const m of movements) {
      running += m.delta;
      expect(m.stock).toBe(running);
      expect(m.stock).toBeGreaterThanOrEqual(0);
    }
    const kinds = (kind: string) => movements.filter((m) => m.kind === kind).length;
    expect([kinds('created'), kinds('order'), kinds('adjustment'), kinds('cancellation')]).toEqual([
      1,
      2 + sold,
      taken + 8,
      2,
    ]);
  });
});

describe('an order waiting while stock is added', () => {
  it('is placed from the stock as it is once locked (201), not refused by the CHECK constraint (500)', async () => {
    const id = await addProduct(t.app, 'Delivery day', '10.00', 1);
    // The adjustment and then the order queue behind a holder of the row; the order's statement
    // began while the stock was 1, and finds 4 once it holds the row. Taking its 3 from the 1 it
    // first saw would make a row with stock -2, which products_stock_nonnegative refuses.
    const held = await holdProducts(t.config.databaseUrl, [id]);
    const delivery = admin('POST', `/admin/products/${id}/stock`, { delta: 3, reason: 'delivery' });
    await lockWaiters(t.config.databaseUrl, 1);
    const order = t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: id, quantity: 3, price: 10 }]),
    });
    await lockWaiters(t.config.databaseUrl, 2);
    await held.release();

    expect((await delivery).statusCode).toBe(200);
    expect((await order).statusCode).toBe(201);
    expect(await stockOf(t.app, id)).toBe(1);
    const movements = await t.app.db.stockMovement.findMany({
      where: { productId: id },
      orderBy: { id: 'asc' },
      select: { kind: true, delta: true, stock: true },
    });
    expect(movements).toEqual([
      { kind: 'adjustment', delta: 3, stock: 4 },
      { kind: 'order', delta: -3, stock: 1 },
    ]);
  });
});
