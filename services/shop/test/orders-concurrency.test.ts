import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OrderStatus } from '@dogshop/contracts/shop';
import pg from 'pg';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { holdProducts, lockWaiters } from './support/locks.js';
import { addProduct, orderBody, stockOf, type OrderLine } from './support/orders.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (items: OrderLine[]) =>
  t.request({ method: 'POST', url: '/orders', payload: orderBody(items) });
const setStatus = (id: number, status: OrderStatus) =>
  t.request({ method: 'PUT', url: `/orders/${id}`, payload: { status } });

async function placeOrder(items: OrderLine[]): Promise<number> {
  const res = await post(items);
  expect(res.statusCode).toBe(201);
  return res.json().data.order_id;
}

/**
 * Sends `request` into a deadlock: another transaction holds product `second`, the request locks
 * `first` and waits for `second`, then the other transaction asks for `first`. The request, waiting
 * longest, is the one PostgreSQL rolls back (after deadlock_timeout, 1 s); the other transaction
 * gets `first` and commits. Resolves to the request's answer.
 */
async function inLockCycle<T>(first: number, second: number, request: () => Promise<T>) {
  const other = new pg.Client({ connectionString: t.config.databaseUrl });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [second]);
    const answer = request();
    await lockWaiters(t.config.databaseUrl, 1);
    await other.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [first]);
    await other.query('COMMIT');
    return await answer;
  } finally {
    await other.end();
  }
}

const countBy = (codes: number[]) =>
  codes.reduce<Record<number, number>>(
    (acc, code) => ({ ...acc, [code]: (acc[code] ?? 0) + 1 }),
    {},
  );

describe('concurrent orders', () => {
  it('never oversell: 20 simultaneous orders for 5 in stock give five 201s and fifteen 409s', async () => {
    const id = await addProduct(t.app, 'Last five', '4.20', 5);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post([{ product_id: id, quantity: 1, price: 4.2 }])),
    );
    expect(countBy(responses.map((r) => r.statusCode))).toEqual({ 201: 5, 409: 15 });
    for (const res of responses.filter((r) => r.statusCode === 409)) {
      expectShopError(res, 409, /insufficient stock for product \d+ \(Last five\)/);
    }
    expect(await stockOf(t.app, id)).toBe(0);
    const sold = await t.app.db.orderItem.aggregate({
      where: { productId: id },
      _sum: { quantity: true },
    });
    expect(sold._sum.quantity).toBe(5);
  });

  it('never deadlocks when orders name the same products in opposite order', async () => {
    const a = await addProduct(t.app, 'Pair A', '1.00', 100);
    const b = await addProduct(t.app, 'Pair B', '2.00', 100);
    const ab = [
      { product_id: a, quantity: 1, price: 1 },
      { product_id: b, quantity: 1, price: 2 },
    ];
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? ab : [...ab].reverse())),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([80, 80]);
  });

  it('places an order that PostgreSQL rolled back to break a deadlock, by running it again', async () => {
    const a = await addProduct(t.app, 'Cycle A', '1.00', 10);
    const b = await addProduct(t.app, 'Cycle B', '2.00', 10);
    // The order locks A, then waits for B.
    const res = await inLockCycle(a, b, () =>
      post([
        { product_id: a, quantity: 1, price: 1 },
        { product_id: b, quantity: 1, price: 2 },
      ]),
    );
    expect(res.statusCode).toBe(201);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([9, 9]);
    expect(await t.app.db.orderItem.count({ where: { orderId: res.json().data.order_id } })).toBe(
      2,
    );
  });

  it('cancels an order whose transaction PostgreSQL rolled back to break a deadlock, by running it again', async () => {
    const a = await addProduct(t.app, 'Return A', '1.00', 10);
    const b = await addProduct(t.app, 'Return B', '2.00', 10);
    const orderId = await placeOrder([
      { product_id: a, quantity: 1, price: 1 },
      { product_id: b, quantity: 2, price: 2 },
    ]);
    // The cancellation returns A's stock, then waits for B.
    const res = await inLockCycle(a, b, () => setStatus(orderId, 'cancelled'));
    expect(res.statusCode).toBe(200);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([10, 10]);
    const history = await t.app.db.orderStatusChange.findMany({
      where: { orderId },
      orderBy: { id: 'asc' },
      select: { fromStatus: true, toStatus: true },
    });
    expect(history.map((h) => `${h.fromStatus ?? ''}>${h.toStatus}`)).toEqual([
      '>pending',
      'pending>cancelled',
    ]);
  });

  it('keeps stock consistent while orders and cancellations interleave', async () => {
    const id = await addProduct(t.app, 'Busy shelf', '1.00', 10);
    const first = await Promise.all(
      Array.from({ length: 5 }, () => placeOrder([{ product_id: id, quantity: 2, price: 1 }])),
    );
    const responses = await Promise.all([
      ...first.map((orderId) => setStatus(orderId, 'cancelled')),
      ...Array.from({ length: 5 }, () => post([{ product_id: id, quantity: 2, price: 1 }])),
    ]);
    const created = responses.slice(5).filter((r) => r.statusCode === 201).length;
    expect(responses.slice(0, 5).map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(await stockOf(t.app, id)).toBe(10 - 2 * created);
  });
});

describe('orders waiting while stock comes back', () => {
  it('are judged and take stock as it is once locked, not as it was when they began', async () => {
    const id = await addProduct(t.app, 'Back on the shelf', '2.00', 2);
    const line = [{ product_id: id, quantity: 2, price: 2 }];
    const returned = await placeOrder(line);
    expect(await stockOf(t.app, id)).toBe(0);
    // Queued behind a holder of the row, in this order: the cancellation (it gives the 2 back),
    // then two orders for 2, whose statements began while the stock was 0. The first finds 2
    // once it holds the row; its UPDATE must not take them from the 0 its snapshot saw
    // (products_stock_nonnegative would refuse -2: a 500 for an order the stock fills).
    const held = await holdProducts(t.config.databaseUrl, [id]);
    const cancel = setStatus(returned, 'cancelled');
    await lockWaiters(t.config.databaseUrl, 1);
    const first = t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody(line),
      headers: { 'idempotency-key': 'back-on-the-shelf' },
    });
    await lockWaiters(t.config.databaseUrl, 2);
    const second = post(line);
    await lockWaiters(t.config.databaseUrl, 3);
    await held.release();

    expect((await cancel).statusCode).toBe(200);
    expect((await first).statusCode).toBe(201);
    expectShopError(
      await second,
      409,
      /^insufficient stock for product \d+ \(Back on the shelf\): 0 available, 2 requested$/,
    );
    expect(await stockOf(t.app, id)).toBe(0);
    const movements = await t.app.db.stockMovement.findMany({
      where: { productId: id },
      orderBy: { id: 'asc' },
      select: { kind: true, delta: true, stock: true },
    });
    expect(movements).toEqual([
      { kind: 'order', delta: -2, stock: 0 },
      { kind: 'cancellation', delta: 2, stock: 2 },
      { kind: 'order', delta: -2, stock: 0 },
    ]);
  });
});

describe('concurrent orders with an Idempotency-Key', () => {
  it('never oversell, and each key answers once: 10 keys sent twice at once for 5 in stock', async () => {
    const id = await addProduct(t.app, 'Last five, keyed', '2.10', 5);
    const payload = orderBody([{ product_id: id, quantity: 1, price: 2.1 }]);
    const send = (key: string) =>
      t.request({
        method: 'POST',
        url: '/orders',
        payload,
        headers: { 'idempotency-key': key },
      });
    const keys = Array.from({ length: 10 }, (_, i) => `keyed-last-five-${i}`);
    const responses = await Promise.all(keys.flatMap((key) => [send(key), send(key)]));
    for (let i = 0; i < keys.length; i++) {
      const [a, b] = [responses[2 * i]!, responses[2 * i + 1]!];
      // Both copies get the key's one answer: the order, or the refusal; one of them replayed.
      expect(a.body).toBe(b.body);
      expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].sort()).toEqual([
        'true',
        undefined,
      ]);
    }
    expect(countBy(responses.map((r) => r.statusCode))).toEqual({ 201: 10, 409: 10 });
    expect(await stockOf(t.app, id)).toBe(0);
    expect(await t.app.db.orderItem.count({ where: { productId: id } })).toBe(5);
  });
});

describe('concurrent orders over several lines', () => {
  it('take every line or none: 12 orders for A (plenty) and B (3 left) place three', async () => {
    const a = await addProduct(t.app, 'All or none A', '1.00', 100);
    const b = await addProduct(t.app, 'All or none B', '2.00', 3);
    const ab = [
      { product_id: a, quantity: 1, price: 1 },
      { product_id: b, quantity: 1, price: 2 },
    ];
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 === 0 ? ab : [...ab].reverse())),
    );
    expect(countBy(responses.map((r) => r.statusCode))).toEqual({ 201: 3, 409: 9 });
    for (const res of responses.filter((r) => r.statusCode === 409)) {
      expectShopError(res, 409, new RegExp(`insufficient stock for product ${b} `));
    }
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([97, 0]);
    const sold = await t.app.db.orderItem.groupBy({
      by: ['productId'],
      where: { productId: { in: [a, b] } },
      _sum: { quantity: true },
      orderBy: { productId: 'asc' },
    });
    expect(sold.map((s) => s._sum.quantity)).toEqual([3, 3]);
  });

  it('count an order naming one product twice as one line, exactly', async () => {
    const id = await addProduct(t.app, 'Twice at once', '1.50', 20);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post([
          { product_id: id, quantity: 1, price: 1.5 },
          { product_id: id, quantity: 2, price: 1.5 },
        ]),
      ),
    );
    expect(countBy(responses.map((r) => r.statusCode))).toEqual({ 201: 6, 409: 4 });
    expect(await stockOf(t.app, id)).toBe(2);
    const items = await t.app.db.orderItem.findMany({ where: { productId: id } });
    expect(items.map((i) => i.quantity)).toEqual(Array(6).fill(3));
  });

  it('refuse a product withdrawn while orders arrive, taking stock only for those placed', async () => {
    const id = await addProduct(t.app, 'Withdrawn', '1.00', 50);
    const [, ...responses] = await Promise.all([
      t.app.db.product.update({ where: { id }, data: { active: false } }),
      ...Array.from({ length: 10 }, () => post([{ product_id: id, quantity: 2, price: 1 }])),
    ]);
    const placed = responses.filter((r) => r.statusCode === 201).length;
    for (const res of responses.filter((r) => r.statusCode !== 201)) {
      expectShopError(res, 400, /\(Withdrawn\) is not available/);
    }
    expect(await stockOf(t.app, id)).toBe(50 - 2 * placed);
    expect(await t.app.db.orderItem.count({ where: { productId: id } })).toBe(placed);
  });
});

describe('concurrent status changes', () => {
  it('lets exactly one of a simultaneous cancel and ship win', async () => {
    const id = await addProduct(t.app, 'Contested', '3.00', 50);
    for (let round = 0; round < 5; round++) {
      const orderId = await placeOrder([{ product_id: id, quantity: 2, price: 3 }]);
      expect((await setStatus(orderId, 'confirmed')).statusCode).toBe(200);
      const stockBefore = await stockOf(t.app, id);
      const [cancel, ship] = await Promise.all([
        setStatus(orderId, 'cancelled'),
        setStatus(orderId, 'shipped'),
      ]);
      expect([cancel.statusCode, ship.statusCode].sort()).toEqual([200, 409]);
      const winner: OrderStatus = cancel.statusCode === 200 ? 'cancelled' : 'shipped';
      const loser = cancel.statusCode === 200 ? ship : cancel;
      expectShopError(loser, 409, new RegExp(`from ${winner} to`));
      const order = await t.app.db.order.findUniqueOrThrow({ where: { id: orderId } });
      expect(order.status).toBe(winner);
      const history = await t.app.db.orderStatusChange.findMany({
        where: { orderId },
        orderBy: { id: 'asc' },
      });
      expect(history.map((h) => h.toStatus)).toEqual(['pending', 'confirmed', winner]);
      expect(await stockOf(t.app, id)).toBe(winner === 'cancelled' ? stockBefore + 2 : stockBefore);
    }
  });

  it('returns the stock once when the same order is cancelled twice at the same time', async () => {
    const id = await addProduct(t.app, 'Double cancel', '1.00', 10);
    const orderId = await placeOrder([{ product_id: id, quantity: 4, price: 1 }]);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => setStatus(orderId, 'cancelled')),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    const messages = responses.map((r) => r.json().message as string);
    expect(messages.filter((m) => m.includes('changed from pending to cancelled'))).toHaveLength(1);
    expect(await stockOf(t.app, id)).toBe(10);
    expect(
      await t.app.db.orderStatusChange.count({ where: { orderId, toStatus: 'cancelled' } }),
    ).toBe(1);
  });
});
