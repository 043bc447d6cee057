// How many statements (database round trips) the hot paths send: each is one statement, BEGIN
// and COMMIT included, counted where the `pg` driver under Prisma sends them. And how they are
// sent: prepared once per connection under a name derived from their text, except those whose
// best plan depends on their values (price bounds within a category), which stay unnamed and are
// planned per call. Answers do not change either way.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { HOLDER_MARK, holdProducts, lockWaiters } from './support/locks.js';
import { addProduct, orderBody } from './support/orders.js';
import { recordStatements } from './support/statements.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;
let statements: ReturnType<typeof recordStatements>;

/**
 * Remembers the API key before each test, whose statements are counted without its lookup: a
 * change of any API key forgets it, also one made by another shop in this process (without
 * Redis their invalidations share the process: a batch of test files, jest.batches.js).
 */
const rememberApiKey = () => t.request({ method: 'GET', url: '/categories' });

beforeAll(async () => {
  // The API key is remembered (rememberApiKey): its lookup is not what is counted here.
  t = await createTestApp({ apiKeyCacheMs: 10 * 60_000 });
  ids = await seedCatalogue(t.app);
  statements = recordStatements(new URL(t.config.databaseUrl).pathname.slice(1));
});
afterAll(async () => {
  statements.restore();
  await t.close();
});

/** The statements one request sends, and its status. */
async function sent(opts: Parameters<TestApp['request']>[0]) {
  let status = 0;
  const sql = await statements.during(async () => {
    status = (await t.request(opts)).statusCode;
  });
  return { status, sql };
}

describe('round trips', () => {
  beforeEach(rememberApiKey);

  it('product detail: one statement, found or not', async () => {
    const id = ids.productId('Blue lead');
    expect(await sent({ method: 'GET', url: `/products/${id}` })).toMatchObject({
      status: 200,
      sql: [expect.stringMatching(/^SELECT /)],
    });
    expect((await sent({ method: 'GET', url: '/products/999999' })).sql).toHaveLength(1);
  });

  it('reviews page: one statement, with or without filter and sort, found or not', async () => {
    const id = ids.productId('Blue lead');
    for (const query of ['', '?rating=4&sort=rating&limit=5&page=2', '?sort=oldest']) {
      const { status, sql } = await sent({ method: 'GET', url: `/products/${id}/reviews${query}` });
      expect({ query, status, count: sql.length }).toEqual({ query, status: 200, count: 1 });
    }
    const missing = await sent({ method: 'GET', url: '/products/999999/reviews' });
    expect(missing).toMatchObject({ status: 404, sql: [expect.any(String)] });
  });

  it('order: one statement placed, one refused (out of stock, or a price that cannot match)', async () => {
    const a = await addProduct(t.app, 'Round trip A', '2.50', 10);
    const b = await addProduct(t.app, 'Round trip B', '4.00', 1);
    const post = (items: Parameters<typeof orderBody>[0]) =>
      sent({ method: 'POST', url: '/orders', payload: orderBody(items) });
    const placed = await post([
      { product_id: a, quantity: 2, price: 2.5 },
      { product_id: b, quantity: 1, price: 4 },
      { product_id: a, quantity: 1, price: 2.5 },
    ]);
    expect(placed).toMatchObject({ status: 201, sql: [expect.stringMatching(/^WITH /)] });
    expect((await post([{ product_id: b, quantity: 1, price: 4 }])).sql).toHaveLength(1);
    const disagreeing = await post([
      { product_id: a, quantity: 1, price: 2.5 },
      { product_id: a, quantity: 1, price: 2 },
    ]);
    expect(disagreeing).toMatchObject({ status: 409, sql: [expect.stringMatching(/^SELECT /)] });
  });

  it('order with an Idempotency-Key: one statement placed or replayed, two refused', async () => {
    const a = await addProduct(t.app, 'Round trip keyed', '1.00', 10);
    const keyed = (key: string, items: Parameters<typeof orderBody>[0]) =>
      sent({
        method: 'POST',
        url: '/orders',
        payload: orderBody(items),
        headers: { 'idempotency-key': key },
      });
    const one = [{ product_id: a, quantity: 1, price: 1 }];
    // Placed: the order and the key's answer in the one statement; replayed: that statement finds
    // the answer and writes nothing.
    expect(await keyed('round-trips', one)).toMatchObject({
      status: 201,
      sql: [expect.stringMatching(/^WITH /)],
    });
    expect(await keyed('round-trips', one)).toMatchObject({
      status: 201,
      sql: [expect.stringMatching(/^WITH /)],
    });
    // Refused: the statement wrote nothing; the refusal is stored as the key's answer.
    const tooMany = [{ product_id: a, quantity: 50, price: 1 }];
    const refused = await keyed('round-trips-refused', tooMany);
    expect(refused.status).toBe(409);
    expect(refused.sql.map((s) => s.split(' ')[0])).toEqual(['WITH', 'INSERT']);
    expect(await keyed('round-trips-refused', tooMany)).toMatchObject({
      status: 409,
      sql: [expect.stringMatching(/^WITH /)],
    });
    // Prices that cannot all be right: the key's answer and the catalogue in one read.
    const disagreeing = [
      { product_id: a, quantity: 1, price: 1 },
      { product_id: a, quantity: 1, price: 2 },
    ];
    const impossible = await keyed('round-trips-prices', disagreeing);
    expect(impossible.status).toBe(409);
    expect(impossible.sql.map((s) => s.split(' ')[0])).toEqual(['WITH', 'INSERT']);
    expect((await keyed('round-trips-prices', disagreeing)).sql).toHaveLength(1);
  });

  it('order with an Idempotency-Key: a twin that waited for the first reads its answer, two', async () => {
    const a = await addProduct(t.app, 'Round trip twins', '1.00', 10);
    const request = {
      method: 'POST' as const,
      url: '/orders',
      payload: orderBody([{ product_id: a, quantity: 1, price: 1 }]),
      headers: { 'idempotency-key': 'round-trips-twins' },
    };
    let statuses: number[] = [];
    const lock = await holdProducts(t.config.databaseUrl, [a]);
    const sql = await statements.during(async () => {
      const twins = [t.request(request), t.request(request)];
      await lockWaiters(t.config.databaseUrl, 2).finally(() => lock.release());
      statuses = (await Promise.all(twins)).map((r) => r.statusCode);
    });
    expect(statuses).toEqual([201, 201]);
    // The first: its statement (1). The twin: its statement, whose claim met the first's
    // committed answer and wrote nothing, then the read of that answer (2).
    const ours = sql.filter((s) => !s.includes(HOLDER_MARK)).map((s) => s.split(' ')[0]);
    expect(ours.sort()).toEqual(['SELECT', 'WITH', 'WITH']);
  });
});

async function namesOf(url: string) {
  let status = 0;
  const sent = await statements.namedDuring(async () => {
    status = (await t.request({ method: 'GET', url })).statusCode;
  });
  expect({ url, status }).toEqual({ url, status: 200 });
  return sent.map((s) => s.name ?? '');
}

describe('prepared statements', () => {
  beforeEach(rememberApiKey);

  it('prepares the browse list, the detail and the reviews page under the same name each call', async () => {
    const id = ids.productId('Blue lead');
    for (const url of ['/products', `/products/${id}`, `/products/${id}/reviews`]) {
      const first = await namesOf(url);
      const again = await namesOf(url);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(/^SELECT_[\w-]{27}$/);
      expect(again).toEqual(first);
    }
    const [newest] = await namesOf('/products');
    expect((await namesOf('/products?sort=name'))[0]).not.toBe(newest);
  });

  it('prepares the list with price bounds under one name whatever the bounds (its plan holds both ways of paging)', async () => {
    const [first] = await namesOf('/products?min_price=10');
    expect(first).toMatch(/^SELECT_[\w-]{27}$/);
    expect(await namesOf('/products?max_price=1')).toEqual([first]);
    expect(await namesOf('/products?min_price=0.5&max_price=1000')).toEqual([first]);
  });

  it('prepares a search under one name per shape whatever its terms and bounds (the planner sees none of them)', async () => {
    const [first] = await namesOf('/products?search=lead&min_price=10');
    expect(first).toMatch(/^SELECT_[\w-]{27}$/);
    expect(await namesOf('/products?search=COLLAR&min_price=0.5&max_price=9')).toEqual([first]);
    // Long terms first, whatever the order they came in.
    const [mixed] = await namesOf('/products?search=le+lead');
    expect(mixed).toMatch(/^SELECT_[\w-]{27}$/);
    expect(mixed).not.toBe(first);
    expect(await namesOf('/products?search=collar+ab')).toEqual([mixed]);
  });

  it('leaves a search of more than three terms unnamed, planned per call', async () => {
    expect(await namesOf('/products?search=a+b+c+d')).toEqual(['']);
  });

  it('leaves price bounds within a category unnamed, planned for their values', async () => {
    const category = ids.categoryId('Leads');
    expect(await namesOf(`/products?category=${category}&max_price=30`)).toEqual(['']);
  });

  it('answers a wide price range right after many calls with a narrow one', async () => {
    const active = (gte: number, lte: number) =>
      t.app.db.product.count({ where: { active: true, price: { gte, lte } } });
    for (let i = 0; i < 8; i += 1) {
      const narrow = await t.request({ method: 'GET', url: '/products?min_price=9&max_price=10' });
      expect(narrow.json().pagination.total).toBe(await active(9, 10));
    }
    const wide = await t.request({ method: 'GET', url: '/products?min_price=0&max_price=1000' });
    expect(wide.json().pagination.total).toBe(await active(0, 1000));
    expect(await active(0, 1000)).toBeGreaterThan(await active(9, 10));
  });
});
