import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateOrderResponseSchema, type CreateOrderBody } from '@dogshop/contracts/shop';
import { requestHash } from '../src/modules/idempotency/service.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
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

  it('creates exactly one order when the same key arrives 10 times at once', async () => {
    const key = newKey();
    const before = await orderCount();
    const stock = await stockOf(t.app, productId);
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(key, body(3))));
    expect(await orderCount()).toBe(before + 1);
    expect(await stockOf(t.app, productId)).toBe(stock - 3);
    const created = responses.filter((r) => r.statusCode === 201);
    const inFlight = responses.filter((r) => r.statusCode === 409);
    expect(created.length + inFlight.length).toBe(10);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    for (const res of inFlight) expectShopError(res, 409, /still in progress/);
  });

  it('answers 409 while a twin request is still in flight', async () => {
    const key = newKey();
    await t.app.db.idempotencyKey.create({ data: { key, requestHash: requestHash(body()) } });
    const before = await orderCount();
    expectShopError(await post(key, body()), 409, /still in progress/);
    expect(await orderCount()).toBe(before);
  });

  it('takes over a claim abandoned in flight for more than five minutes', async () => {
    const key = newKey();
    await t.app.db.idempotencyKey.create({
      data: {
        key,
        requestHash: requestHash(body()),
        createdAt: new Date(Date.now() - 6 * 60 * 1000),
      },
    });
    const res = await post(key, body());
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
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
