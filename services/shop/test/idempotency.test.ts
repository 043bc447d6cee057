import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateOrderResponseSchema, type CreateOrderBody } from '@dogshop/contracts/shop';
import { createDb } from '../src/db/client.js';
import { Decimal } from '../src/domain/money.js';
import { keyedRequest, requestHash } from '../src/modules/idempotency/service.js';
import { newOrderAccessToken } from '../src/modules/orders/access-token.js';
import { placeOrderIfAccepted, type Placement } from '../src/modules/orders/repository.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { holdProducts, lockWaiters } from './support/locks.js';
import { addProduct, orderBody, stockOf } from './support/orders.js';

let t: TestApp;
let productId: number;

beforeAll(async () => {
  t = await createTestApp();
  productId = await addProduct(t.app, 'Replayable lead', '19.99', 1000);
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;
let keys = 0;
/** A key of its own for every test, so tests cannot replay each other's responses. */
const newKey = () => `order-${++keys}-${Date.now()}`;

const body = (quantity = 1, extra: Partial<CreateOrderBody> = {}) =>
  orderBody([{ product_id: productId, quantity, price: 19.99 }], extra);
const post = (key: string | undefined, payload: unknown) =>
  t.request({
    method: 'POST',
    url: '/orders',
    payload: payload as object,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const orderCount = () => t.app.db.order.count();

describe('Idempotency-Key on POST /orders', () => {
  it('replays the first response for the same key and body, creating one order', async () => {
    const key = newKey();
    const before = await orderCount();
    const first = await post(key, body(2));
    expect(first.statusCode).toBe(201);
    expectContract(CreateOrderResponseSchema, first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await post(key, body(2));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await orderCount()).toBe(before + 1);
  });

  it('takes the body as canonical JSON: the order of its fields does not matter', async () => {
    const key = newKey();
    const first = await post(key, body());
    const { items, customer_email, customer_name } = body();
    const reordered = await post(key, { items, customer_email, customer_name });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.json()).toEqual(first.json());
  });

  it('answers 422 for the same key with a different body, creating nothing', async () => {
    const key = newKey();
    expect((await post(key, body(1))).statusCode).toBe(201);
    const before = await orderCount();
    expectShopError(await post(key, body(2)), 422, /Idempotency-Key .*different request body/);
    expectShopError(await post(key, body(1, { customer_name: 'Someone else' })), 422);
    expect(await orderCount()).toBe(before);
  });

  it('creates exactly one order when the same key arrives 10 times at once; all get its answer', async () => {
    const key = newKey();
    const before = await orderCount();
    const stock = await stockOf(t.app, productId);
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(key, body(3))));
    expect(await orderCount()).toBe(before + 1);
    expect(await stockOf(t.app, productId)).toBe(stock - 3);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
  });

  it('lets a twin that arrives while the first still runs wait, then replays the first answer', async () => {
    const key = newKey();
    const before = await orderCount();
    const stock = await stockOf(t.app, productId);
    // Both requests start while a writer holds the product, so both statements begin before
    // either answer exists; the second one learns of the first's only when its claim conflicts.
    const lock = await holdProducts(t.config.databaseUrl, [productId]);
    const twins = [post(key, body(2)), post(key, body(2))];
    await lockWaiters(t.config.databaseUrl, 2).finally(() => lock.release());
    const [a, b] = await Promise.all(twins);
    expect([a!.statusCode, b!.statusCode]).toEqual([201, 201]);
    expect(a!.body).toBe(b!.body);
    const replayed = [a!, b!].map((r) => r.headers['idempotent-replayed']).sort();
    expect(replayed).toEqual(['true', undefined]);
    expect(await orderCount()).toBe(before + 1);
    expect(await stockOf(t.app, productId)).toBe(stock - 2);
  });

  it('answers 422 to a concurrent request with the same key and another body, placing one', async () => {
    const key = newKey();
    const before = await orderCount();
    const lock = await holdProducts(t.config.databaseUrl, [productId]);
    const twins = [post(key, body(1)), post(key, body(2))];
    await lockWaiters(t.config.databaseUrl, 2).finally(() => lock.release());
    const responses = await Promise.all(twins);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    expect(await orderCount()).toBe(before + 1);
  });

  it('replays the first answer to a twin refused for the stock the first one took', async () => {
    const id = await addProduct(t.app, 'The very last one', '3.00', 1);
    const key = newKey();
    const payload = orderBody([{ product_id: id, quantity: 1, price: 3 }]);
    const lock = await holdProducts(t.config.databaseUrl, [id]);
    const twins = [post(key, payload), post(key, payload)];
    await lockWaiters(t.config.databaseUrl, 2).finally(() => lock.release());
    const responses = await Promise.all(twins);
    // The second found no stock left, but the key's answer is the first's order: one order was
    // sent and it was placed, so "insufficient stock" would be a wrong answer.
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(responses[0]!.body).toBe(responses[1]!.body);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
    expect(await stockOf(t.app, id)).toBe(0);
    expect(await t.app.db.orderItem.count({ where: { productId: id } })).toBe(1);
  });

  it('leaves nothing behind when a request dies mid-way: its retry places the order once, at once', async () => {
    const id = await addProduct(t.app, 'Ordered by a dying replica', '7.50', 10);
    const key = newKey();
    const payload = orderBody([{ product_id: id, quantity: 4, price: 7.5 }]);
    const before = await orderCount();
    // The dying request: the order statement of POST /orders, placed through the same repository
    // function on a connection of its own, in a transaction that never gets to commit (its
    // process is killed). Until then it holds the product and the key's uncommitted row.
    const dying = createDb(t.config.databaseUrl, 1);
    let placedInside: Placement | undefined;
    let markPlaced = () => {};
    const placedOnce = new Promise<void>((resolve) => (markPlaced = resolve));
    let backend = 0;
    try {
      const transaction = dying.$transaction(
        async (tx) => {
          const [session] = await tx.$queryRaw<Array<{ pid: number }>>`
            SELECT pg_backend_pid() AS pid`;
          backend = session!.pid;
          placedInside = await placeOrderIfAccepted(
            tx,
            {
              customerId: null,
              accessToken: newOrderAccessToken(),
              customerName: payload.customer_name,
              customerEmail: payload.customer_email,
              customerPhone: '',
              status: 'pending',
              lines: [{ productId: id, quantity: 4, unitPrice: new Decimal('7.50') }],
            },
            keyedRequest(key, payload),
          );
          markPlaced();
          await tx.$queryRaw`SELECT pg_sleep(30)`; // killed during this
        },
        { timeout: 60_000 },
      );
      const died = transaction.then(
        () => false,
        () => true,
      );
      await Promise.race([placedOnce, transaction]);
      expect(placedInside?.outcome).toBe('placed');

      // A client retries on another replica while the first still runs: it waits for the lock.
      const retry = post(key, payload);
      await lockWaiters(t.config.databaseUrl, 1);
      // The first replica dies: PostgreSQL ends its session and rolls its transaction back.
      await t.app.db.$queryRaw`SELECT pg_terminate_backend(${backend}::int)`;
      expect(await died).toBe(true);

      const res = await retry;
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await orderCount()).toBe(before + 1);
      expect(await stockOf(t.app, id)).toBe(6);
      const row = await t.app.db.idempotencyKey.findUniqueOrThrow({ where: { key } });
      expect(row).toMatchObject({ state: 'completed', statusCode: 201 });
      expect(row.responseBody).toEqual(res.json());

      // Later retries replay it; the dead request's order never existed.
      const again = await post(key, payload);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(res.body);
      expect(await stockOf(t.app, id)).toBe(6);
    } finally {
      await dying.$disconnect();
    }
  });

  it('answers a retry at once after its first request died, with no 409 meanwhile', async () => {
    const id = await addProduct(t.app, 'Retried after a crash', '2.00', 10);
    const key = newKey();
    const payload = orderBody([{ product_id: id, quantity: 1, price: 2 }]);
    const dying = createDb(t.config.databaseUrl, 1);
    try {
      // Killed after its order statement ran and before its transaction committed.
      await expect(
        dying.$transaction(async (tx) => {
          const placed = await placeOrderIfAccepted(
            tx,
            {
              customerId: null,
              accessToken: newOrderAccessToken(),
              customerName: payload.customer_name,
              customerEmail: payload.customer_email,
              customerPhone: '',
              status: 'pending',
              lines: [{ productId: id, quantity: 1, unitPrice: new Decimal(2) }],
            },
            keyedRequest(key, payload),
          );
          expect(placed.outcome).toBe('placed');
          await tx.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`;
        }),
      ).rejects.toThrow();
    } finally {
      await dying.$disconnect();
    }
    expect(await t.app.db.idempotencyKey.findUnique({ where: { key } })).toBeNull();
    const res = await post(key, payload);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await stockOf(t.app, id)).toBe(9);
    expect(await t.app.db.orderItem.count({ where: { productId: id } })).toBe(1);
  });

  it('takes over at once an in_flight claim of an earlier version, young or old', async () => {
    // The shop no longer writes such rows; one left by an earlier version is not an answer.
    for (const age of [0, 6 * 60 * 1000]) {
      const key = newKey();
      await t.app.db.idempotencyKey.create({
        data: { key, requestHash: requestHash(body()), createdAt: new Date(Date.now() - age) },
      });
      const before = await orderCount();
      const res = await post(key, body());
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await orderCount()).toBe(before + 1);
      const row = await t.app.db.idempotencyKey.findUniqueOrThrow({ where: { key } });
      expect(row).toMatchObject({ state: 'completed', statusCode: 201 });
      expect(row.responseBody).toEqual(res.json());
    }
  });

  it('treats a key older than 24 hours as new', async () => {
    const key = newKey();
    const first = await post(key, body());
    await t.app.db.idempotencyKey.update({
      where: { key },
      data: { createdAt: new Date(Date.now() - 25 * HOUR) },
    });
    const before = await orderCount();
    const again = await post(key, body(2));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().data.order_id).not.toBe(first.json().data.order_id);
    expect(await orderCount()).toBe(before + 1);
  });

  it('still replays within the 24 hours', async () => {
    const key = newKey();
    await post(key, body());
    await t.app.db.idempotencyKey.update({
      where: { key },
      data: { createdAt: new Date(Date.now() - 23 * HOUR) },
    });
    expect((await post(key, body())).headers['idempotent-replayed']).toBe('true');
  });

  it('replays a refusal of the order logic as it was first given', async () => {
    const id = await addProduct(t.app, 'Sold out soon', '5.00', 1);
    const key = newKey();
    const payload = orderBody([{ product_id: id, quantity: 2, price: 5 }]);
    const first = await post(key, payload);
    expectShopError(first, 409, /insufficient stock/);
    await t.app.db.product.update({ where: { id }, data: { stock: 10 } });
    const again = await post(key, payload);
    expectShopError(again, 409, /insufficient stock/);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await stockOf(t.app, id)).toBe(10);
    const row = await t.app.db.idempotencyKey.findUniqueOrThrow({ where: { key } });
    expect(row).toMatchObject({ state: 'completed', statusCode: 409 });
  });

  it('replays a refusal of prices that cannot all be right, and takes over when expired', async () => {
    const id = await addProduct(t.app, 'Two prices sent', '5.00', 10);
    const key = newKey();
    const payload = orderBody([
      { product_id: id, quantity: 1, price: 5 },
      { product_id: id, quantity: 1, price: 4 },
    ]);
    const first = await post(key, payload);
    expectShopError(first, 409, /price of product \d+ \(Two prices sent\) is 5\.00, not 4\.00/);
    const again = await post(key, payload);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expectShopError(await post(key, body()), 422, /different request body/);
    await t.app.db.idempotencyKey.update({
      where: { key },
      data: { createdAt: new Date(Date.now() - 25 * HOUR) },
    });
    const afterExpiry = await post(key, body());
    expect(afterExpiry.statusCode).toBe(201);
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined();
  });

  it("stores an expired key's new refusal in its place", async () => {
    const id = await addProduct(t.app, 'Empty shelf', '1.00', 0);
    const key = newKey();
    const payload = orderBody([{ product_id: id, quantity: 1, price: 1 }]);
    expectShopError(await post(key, payload), 409, /insufficient stock/);
    await t.app.db.idempotencyKey.update({
      where: { key },
      data: { createdAt: new Date(Date.now() - 25 * HOUR), requestHash: 'another body' },
    });
    const again = await post(key, payload);
    expectShopError(again, 409, /insufficient stock/);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    const row = await t.app.db.idempotencyKey.findUniqueOrThrow({ where: { key } });
    expect(row).toMatchObject({ requestHash: requestHash(payload), statusCode: 409 });
    expect(Date.now() - row.createdAt.getTime()).toBeLessThan(HOUR);
  });

  it('does not spend the key on a request that fails validation', async () => {
    const key = newKey();
    expectShopError(await post(key, body(0)), 400, /quantity/);
    const res = await post(key, body(1));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('releases the key after an unexpected failure so that a retry can succeed', async () => {
    const key = newKey();
    await t.app.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_orders() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'orders are switched off'; END $$`);
    await t.app.db.$executeRawUnsafe(
      'CREATE TRIGGER refuse_orders BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION refuse_orders()',
    );
    const stock = await stockOf(t.app, productId);
    try {
      const failed = await post(key, body());
      expectShopError(failed, 500, /^Internal server error$/);
      expect(await t.app.db.idempotencyKey.findUnique({ where: { key } })).toBeNull();
      expect(await stockOf(t.app, productId)).toBe(stock);
    } finally {
      await t.app.db.$executeRawUnsafe('DROP TRIGGER refuse_orders ON orders');
      await t.app.db.$executeRawUnsafe('DROP FUNCTION refuse_orders()');
    }
    const retry = await post(key, body());
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores the key with its state and response', async () => {
    const key = newKey();
    const res = await post(key, body());
    const row = await t.app.db.idempotencyKey.findUniqueOrThrow({ where: { key } });
    expect(row).toMatchObject({
      state: 'completed',
      statusCode: 201,
      requestHash: requestHash(body()),
    });
    expect(row.responseBody).toEqual(res.json());
  });

  it('accepts keys of 1 to 255 characters and answers 400 for others', async () => {
    expect((await post('k', body())).statusCode).toBe(201);
    expect((await post('x'.repeat(255), body())).statusCode).toBe(201);
    expectShopError(await post('x'.repeat(256), body()), 400, /idempotency-key/);
    expectShopError(await post('', body()), 400, /idempotency-key/);
  });

  it('does not deduplicate requests without a key', async () => {
    const before = await orderCount();
    const [a, b] = [await post(undefined, body()), await post(undefined, body())];
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.order_id).not.toBe(b.json().data.order_id);
    expect(await orderCount()).toBe(before + 2);
  });
});
