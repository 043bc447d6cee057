// The outbox and the catch-up feed: each event is written with the change that causes it (none for
// a refused, rolled-back or replayed change) and GET /events lists them in commit order.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ShopEvent } from '@dogshop/contracts/shop';
import pg from 'pg';
import { createTestApp, type TestApp } from './support/app.js';
import { bearer, registerCustomer } from './support/customers.js';
import { addProduct, orderBody, stockOf } from './support/orders.js';

/** Status changes name who made them: here the test's key (registered as "tests"). */
const BY_TEST_KEY = { type: 'api_key', id: expect.any(Number), name: 'tests' };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The feed after `after`, as a client reads it. */
async function feed(after = 0, limit = 500, app: TestApp = t) {
  const res = await app.request({ method: 'GET', url: `/events?after=${after}&limit=${limit}` });
  expect(res.statusCode).toBe(200);
  return res.json().data as { events: ShopEvent[]; next_after: number };
}

/** Everything from the feed after `after`, page by page. */
async function feedFrom(after: number, app: TestApp = t): Promise<ShopEvent[]> {
  const all: ShopEvent[] = [];
  for (;;) {
    const page = await feed(after, 500, app);
    if (page.events.length === 0) return all;
    all.push(...page.events);
    after = page.next_after;
  }
}

/** The feed's position now: what a test's own changes come after. */
const head = async (app: TestApp = t) => (await feedFrom(0, app)).at(-1)?.sequence ?? 0;

/** The events a change adds to the feed. */
async function eventsOf(change: () => Promise<unknown>, app: TestApp = t) {
  const before = await head(app);
  await change();
  return feedFrom(before, app);
}

const typesOf = (events: ShopEvent[]) => events.map((e) => e.type);

async function placeOrder(items: Parameters<typeof orderBody>[0], headers = {}) {
  return t.request({ method: 'POST', url: '/orders', payload: orderBody(items), headers });
}

async function orderAsShown(id: number) {
  const res = await t.request({ method: 'GET', url: `/orders/${id}` });
  return res.json().data as unknown;
}

describe('events of the real operations', () => {
  it('order.created carries the order as GET /orders/{id} shows it', async () => {
    const a = await addProduct(t.app, 'Event lead', '12.50', 10);
    const b = await addProduct(t.app, 'Event collar', '7.05', 10);
    let orderId = 0;
    const events = await eventsOf(async () => {
      const res = await placeOrder([
        { product_id: b, quantity: 1, price: 7.05 },
        { product_id: a, quantity: 2, price: 12.5 },
        { product_id: b, quantity: 2, price: 7.05 },
      ]);
      expect(res.statusCode).toBe(201);
      orderId = res.json().data.order_id as number;
    });
    expect(typesOf(events)).toEqual(['order.created']);
    const [event] = events;
    expect(event!.data).toEqual(await orderAsShown(orderId));
    expect(event!.timestamp).toBe((event!.data as { created_at: string }).created_at);
    expect(event!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an order that empties a product adds product.out_of_stock; its cancellation product.back_in_stock', async () => {
    const a = await addProduct(t.app, 'Last lead', '3.00', 2);
    const b = await addProduct(t.app, 'Plenty collar', '1.00', 50);
    let orderId = 0;
    const placed = await eventsOf(async () => {
      const res = await placeOrder([
        { product_id: a, quantity: 2, price: 3 },
        { product_id: b, quantity: 1, price: 1 },
      ]);
      orderId = res.json().data.order_id as number;
    });
    expect(typesOf(placed)).toEqual(['order.created', 'product.out_of_stock']);
    expect(placed[1]!.data).toEqual({ product_id: a, name: 'Last lead', stock: 0 });

    const cancelled = await eventsOf(() =>
      t.request({ method: 'PUT', url: `/orders/${orderId}`, payload: { status: 'cancelled' } }),
    );
    expect(typesOf(cancelled)).toEqual(['order.status_changed', 'product.back_in_stock']);
    expect(cancelled[0]!.data).toEqual({
      from: 'pending',
      to: 'cancelled',
      order: await orderAsShown(orderId),
      actor: BY_TEST_KEY,
    });
    // Who cancelled gave the stock back: the stock events name their actor when it is known.
    expect(cancelled[1]!.data).toEqual({
      product_id: a,
      name: 'Last lead',
      stock: 2,
      actor: BY_TEST_KEY,
    });
  });

  it('order.status_changed for each change, none for a no-op or a refused change', async () => {
    const a = await addProduct(t.app, 'Status lead', '2.00', 10);
    const res = await placeOrder([{ product_id: a, quantity: 1, price: 2 }]);
    const id = res.json().data.order_id as number;
    const put = (status: string) =>
      t.request({ method: 'PUT', url: `/orders/${id}`, payload: { status } });
    const events = await eventsOf(async () => {
      expect((await put('confirmed')).statusCode).toBe(200);
      expect((await put('confirmed')).statusCode).toBe(200); // no-op
      expect((await put('pending')).statusCode).toBe(409);
      expect((await put('shipped')).statusCode).toBe(200);
    });
    expect(events.map((e) => e.data)).toEqual([
      {
        from: 'pending',
        to: 'confirmed',
        order: expect.objectContaining({ status: 'confirmed' }),
        actor: BY_TEST_KEY,
      },
      { from: 'confirmed', to: 'shipped', order: await orderAsShown(id), actor: BY_TEST_KEY },
    ]);
  });

  it('review.created carries the review as the reviews list shows it; a second review adds none', async () => {
    const a = await addProduct(t.app, 'Reviewed lead', '2.00', 10);
    const customer = await registerCustomer(t, { first_name: 'Rita', last_name: 'Reviewer' });
    const review = { rating: 4, title: 'Good lead', comment: 'Holds up in wet heather.' };
    const post = () =>
      t.request({
        method: 'POST',
        url: `/products/${a}/reviews`,
        payload: review,
        headers: bearer(customer.token),
      });
    const events = await eventsOf(async () => {
      expect((await post()).statusCode).toBe(201);
      expect((await post()).statusCode).toBe(409);
    });
    const listed = await t.request({ method: 'GET', url: `/products/${a}/reviews` });
    expect(typesOf(events)).toEqual(['review.created']);
    expect(events[0]!.data).toEqual(listed.json().data.reviews[0]);
  });

  it('refused orders (stock, price, unknown or inactive product) add none', async () => {
    const a = await addProduct(t.app, 'Refusing lead', '5.00', 1);
    const inactive = await addProduct(t.app, 'Retired lead', '5.00', 9, false);
    const events = await eventsOf(async () => {
      const statuses = [
        (await placeOrder([{ product_id: a, quantity: 2, price: 5 }])).statusCode,
        (await placeOrder([{ product_id: a, quantity: 1, price: 4.99 }])).statusCode,
        (await placeOrder([{ product_id: 999_999, quantity: 1, price: 5 }])).statusCode,
        (await placeOrder([{ product_id: inactive, quantity: 1, price: 5 }])).statusCode,
        (
          await placeOrder([
            { product_id: a, quantity: 1, price: 5 },
            { product_id: a, quantity: 1, price: 4 },
          ])
        ).statusCode,
      ];
      expect(statuses).toEqual([409, 409, 400, 400, 409]);
    });
    expect(events).toEqual([]);
    expect(await stockOf(t.app, a)).toBe(1);
  });

  it('an Idempotency-Key replay adds none; a keyed refusal none', async () => {
    const a = await addProduct(t.app, 'Keyed lead', '1.00', 3);
    const headers = { 'idempotency-key': 'events-replay' };
    const events = await eventsOf(async () => {
      const first = await placeOrder([{ product_id: a, quantity: 1, price: 1 }], headers);
      const again = await placeOrder([{ product_id: a, quantity: 1, price: 1 }], headers);
      expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const refused = { 'idempotency-key': 'events-refused' };
      expect(
        (await placeOrder([{ product_id: a, quantity: 9, price: 1 }], refused)).statusCode,
      ).toBe(409);
      expect(
        (await placeOrder([{ product_id: a, quantity: 9, price: 1 }], refused)).statusCode,
      ).toBe(409);
    });
    expect(typesOf(events)).toEqual(['order.created']);
  });
});

describe('rolled-back changes leave no event', () => {
  let r: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    r = await createTestApp();
    admin = new pg.Client({ connectionString: r.config.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await r.close();
  });

  it('an order statement that fails after writing its events leaves neither order nor event', async () => {
    const a = await addProduct(r.app, 'Thirteen leads', '1.00', 20);
    // A line of 13 now fails the statement at its order_items insert, a sibling of the events'.
    await admin.query('ALTER TABLE order_items ADD CONSTRAINT no_thirteen CHECK (quantity <> 13)');
    try {
      const events = await eventsOf(async () => {
        const res = await r.request({
          method: 'POST',
          url: '/orders',
          payload: orderBody([{ product_id: a, quantity: 13, price: 1 }]),
        });
        expect(res.statusCode).toBe(500);
      }, r);
      expect(events).toEqual([]);
      expect(await stockOf(r.app, a)).toBe(20);
      expect(await r.app.db.order.count()).toBe(0);
      const { rows } = await admin.query('SELECT count(*)::int AS n FROM events');
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await admin.query('ALTER TABLE order_items DROP CONSTRAINT no_thirteen');
    }
  });

  it('a cancellation whose events cannot be written is rolled back whole', async () => {
    const a = await addProduct(r.app, 'Rolled back lead', '1.00', 1);
    const res = await r.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: a, quantity: 1, price: 1 }]),
    });
    const id = res.json().data.order_id as number;
    await admin.query(
      "ALTER TABLE events ADD CONSTRAINT no_restock CHECK (type <> 'product.back_in_stock')",
    );
    try {
      const events = await eventsOf(async () => {
        const put = await r.request({
          method: 'PUT',
          url: `/orders/${id}`,
          payload: { status: 'cancelled' },
        });
        expect(put.statusCode).toBe(500);
      }, r);
      expect(events).toEqual([]);
      expect(await stockOf(r.app, a)).toBe(0);
      const order = await r.request({ method: 'GET', url: `/orders/${id}` });
      expect(order.json().data.status).toBe('pending');
    } finally {
      await admin.query('ALTER TABLE events DROP CONSTRAINT no_restock');
    }
  });
});

describe('the feed', () => {
  it('never lists an event behind one already read: a transaction that wrote first but commits later comes after', async () => {
    const a = await addProduct(t.app, 'Ordering lead', '1.00', 10);
    const start = await head();
    // A concurrent writer: its event is inserted (and gets its insert position) first, and its
    // transaction stays open while an order is placed and committed.
    const slow = new pg.Client({ connectionString: t.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(
        `INSERT INTO events (type, occurred_at, data)
         VALUES ('product.back_in_stock', now(), '{"product_id": 1, "name": "slow", "stock": 1}')`,
      );
      expect((await placeOrder([{ product_id: a, quantity: 1, price: 1 }])).statusCode).toBe(201);
      const first = await feed(start);
      expect(typesOf(first.events)).toEqual(['order.created']);
      await slow.query('COMMIT');
      const later = await feed(first.next_after);
      expect(typesOf(later.events)).toEqual(['product.back_in_stock']);
      expect(later.events[0]!.sequence).toBeGreaterThan(first.next_after);
      // By insert position the slow event came first: a number drawn at insert would have put it
      // behind the order's, where the reader (already past it) would never have looked.
      const { rows } = await slow.query<{ type: string }>(
        'SELECT type FROM events WHERE id = ANY($1) ORDER BY position',
        [[first.events[0]!.id, later.events[0]!.id]],
      );
      expect(rows.map((row) => row.type)).toEqual(['product.back_in_stock', 'order.created']);
    } finally {
      await slow.end();
    }
  });

  it('readers paging while orders commit concurrently see every event once, in gapless sequence', async () => {
    const a = await addProduct(t.app, 'Burst lead', '1.00', 1000);
    const start = await head();
    const seen: ShopEvent[] = [];
    let after = start;
    let placing = true;
    const reader = (async () => {
      while (placing) {
        const page = await feed(after, 7);
        seen.push(...page.events);
        after = page.next_after;
      }
    })();
    const orders = await Promise.all(
      Array.from({ length: 40 }, () => placeOrder([{ product_id: a, quantity: 1, price: 1 }])),
    );
    placing = false;
    await reader;
    seen.push(...(await feedFrom(after)));
    expect(orders.every((o) => o.statusCode === 201)).toBe(true);
    expect(seen.map((e) => e.sequence)).toEqual(seen.map((_, i) => start + i + 1));
    const orderIds = seen.map((e) => (e.data as { id: number }).id).sort((x, y) => x - y);
    expect(orderIds).toEqual(
      orders.map((o) => o.json().data.order_id as number).sort((x, y) => x - y),
    );
  });

  it('pages by after and limit; checks its query and its key', async () => {
    const all = await feedFrom(0);
    expect(all.length).toBeGreaterThan(3);
    const page = await feed(all[1]!.sequence, 2);
    expect(page.events.map((e) => e.id)).toEqual([all[2]!.id, all[3]!.id]);
    expect(page.next_after).toBe(all[3]!.sequence);
    const end = await feed(all.at(-1)!.sequence + 100);
    expect(end).toEqual({ events: [], next_after: all.at(-1)!.sequence + 100 });
    expect((await t.request({ method: 'GET', url: '/events?limit=501' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/events?after=-1' })).statusCode).toBe(400);
    const keyless = await t.app.inject({ method: 'GET', url: '/events' });
    expect(keyless.statusCode).toBe(401);
    expect(keyless.json()).toMatchObject({ success: false, status_code: 401 });
  });
});
