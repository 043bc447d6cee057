import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SuccessMessageSchema } from '@dogshop/contracts/common';
import {
  CreateOrderResponseSchema,
  OrderDetailResponseSchema,
  type OrderStatus,
} from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectContract, expectShopError } from './support/contract.js';
import { addProduct, orderBody, stockOf, type OrderLine } from './support/orders.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await seedCatalogue(t.app);
});
afterAll(() => t.close());

const post = (body: unknown) =>
  t.request({ method: 'POST', url: '/orders', payload: body as object });
const getOrder = (id: number) => t.request({ method: 'GET', url: `/orders/${id}` });
const setStatus = (id: number, status: unknown) =>
  t.request({ method: 'PUT', url: `/orders/${id}`, payload: { status } });
const orderCount = () => t.app.db.order.count();

async function placeOrder(items: OrderLine[]): Promise<number> {
  const res = await post(orderBody(items));
  expect(res.statusCode).toBe(201);
  return res.json().data.order_id;
}

describe('POST /orders', () => {
  it('creates an order and answers 201 with the contract shape', async () => {
    const res = await post(
      orderBody([{ product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 }]),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expectContract(CreateOrderResponseSchema, body);
    expect(body).toMatchObject({ success: true, data: { total_amount: 9.5 } });
    expect(body.message).toMatch(new RegExp(`Order ${body.data.order_id} created`));
  });

  it('computes the total exactly (3 × 19.99 + 1 × 39.90 = 99.87)', async () => {
    const res = await post(
      orderBody([
        { product_id: ids.productId('Blue lead'), quantity: 3, price: 19.99 },
        { product_id: ids.productId('Red tracking lead'), quantity: 1, price: 39.9 },
      ]),
    );
    expect(res.json().data.total_amount).toBe(99.87);
    const detail = (await getOrder(res.json().data.order_id)).json().data;
    expect(detail.total_amount).toBe(99.87);
    expect(detail.items.map((i: { total_price: number }) => i.total_price).sort()).toEqual([
      39.9, 59.97,
    ]);
  });

  it('decrements the stock of every product ordered', async () => {
    const a = await addProduct(t.app, 'Stock A', '2.00', 10);
    const b = await addProduct(t.app, 'Stock B', '3.00', 4);
    await placeOrder([
      { product_id: a, quantity: 7, price: 2 },
      { product_id: b, quantity: 4, price: 3 },
    ]);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([3, 0]);
  });

  it("keeps the catalogue's name and price at order time, ignoring the sent product_name", async () => {
    const id = await addProduct(t.app, 'Snapshot lead', '12.30', 5);
    const orderId = await placeOrder([
      { product_id: id, quantity: 2, price: 12.3, product_name: 'Cheap knock-off' },
    ]);
    await t.app.db.product.update({
      where: { id },
      data: { name: 'Renamed lead', price: '15.00' },
    });
    const detail = (await getOrder(orderId)).json().data;
    expect(detail.items).toEqual([
      {
        product_id: id,
        product_name: 'Snapshot lead',
        quantity: 2,
        price: 12.3,
        total_price: 24.6,
      },
    ]);
    expect(detail.total_amount).toBe(24.6);
  });

  it('merges lines of the same product into one', async () => {
    const id = await addProduct(t.app, 'Merged lead', '1.10', 10);
    const orderId = await placeOrder([
      { product_id: id, quantity: 2, price: 1.1 },
      { product_id: id, quantity: 3, price: 1.1 },
    ]);
    const detail = (await getOrder(orderId)).json().data;
    expect(detail.items).toEqual([
      { product_id: id, product_name: 'Merged lead', quantity: 5, price: 1.1, total_price: 5.5 },
    ]);
    expect(await stockOf(t.app, id)).toBe(5);
  });

  it('starts orders as pending and records that in the history', async () => {
    const orderId = await placeOrder([
      { product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 },
    ]);
    expect((await getOrder(orderId)).json().data.status).toBe('pending');
    const history = await t.app.db.orderStatusChange.findMany({ where: { orderId } });
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([[null, 'pending']]);
  });

  it('stores the e-mail address trimmed and lower-cased, and the phone when given', async () => {
    const res = await post(
      orderBody([{ product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 }], {
        customer_email: '  Ann@Example.COM ',
        customer_phone: '+49 30 123',
      }),
    );
    const row = await t.app.db.order.findUniqueOrThrow({ where: { id: res.json().data.order_id } });
    expect([row.customerEmail, row.customerPhone]).toEqual(['ann@example.com', '+49 30 123']);
  });

  it('accepts quantity 1 and the maximum of 100 lines', async () => {
    const id = await addProduct(t.app, 'Hundred bowls', '9.50', 100);
    const lines = Array.from({ length: 100 }, () => ({ product_id: id, quantity: 1, price: 9.5 }));
    const res = await post(orderBody(lines));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.total_amount).toBe(950);
    expect(await stockOf(t.app, id)).toBe(0);
  });

  it('requires the API key', async () => {
    const body = orderBody([{ product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 }]);
    expectShopError(
      await t.app.inject({ method: 'POST', url: '/orders', payload: body }),
      401,
      /API key/,
    );
    expectShopError(await t.app.inject({ method: 'GET', url: '/orders/1' }), 401);
    expectShopError(
      await t.app.inject({ method: 'PUT', url: '/orders/1', payload: { status: 'cancelled' } }),
      401,
    );
  });

  const item = { product_id: 1, product_name: 'x', quantity: 1, price: 9.5 };
  const valid = { customer_name: 'Ann', customer_email: 'ann@example.com', items: [item] };
  const without = (field: string) =>
    Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field));
  it.each([
    ['no customer_name', without('customer_name'), /customer_name/],
    ['no customer_email', without('customer_email'), /customer_email/],
    ['no items', without('items'), /items/],
    ['an invalid e-mail address', { ...valid, customer_email: 'not-an-email' }, /customer_email/],
    ['a blank customer_name', { ...valid, customer_name: '   ' }, /customer_name/],
    ['empty items', { ...valid, items: [] }, /items/],
    ['101 items', { ...valid, items: Array.from({ length: 101 }, () => item) }, /items/],
    ['quantity 0', { ...valid, items: [{ ...item, quantity: 0 }] }, /quantity/],
    ['a negative quantity', { ...valid, items: [{ ...item, quantity: -1 }] }, /quantity/],
    ['a fractional quantity', { ...valid, items: [{ ...item, quantity: 1.5 }] }, /quantity/],
    ['quantity as a string', { ...valid, items: [{ ...item, quantity: '2' }] }, /quantity/],
    ['product_id as a string', { ...valid, items: [{ ...item, product_id: '1' }] }, /product_id/],
    ['price as a string', { ...valid, items: [{ ...item, price: '9.50' }] }, /price/],
    ['a negative price', { ...valid, items: [{ ...item, price: -9.5 }] }, /price/],
    ['an item without price', { ...valid, items: [{ ...item, price: undefined }] }, /price/],
    [
      'an item without product_name',
      { ...valid, items: [{ ...item, product_name: undefined }] },
      /product_name/,
    ],
    ['an unknown field', { ...valid, coupon: 'FREE' }, /unknown field 'coupon'/],
    ['an unknown item field', { ...valid, items: [{ ...item, discount: 1 }] }, /discount/],
    ['price 1e308', { ...valid, items: [{ ...item, price: 1e308 }] }, /price/],
    ['quantity 1e20', { ...valid, items: [{ ...item, quantity: 1e20 }] }, /quantity/],
    [
      'product_id beyond 32 bits',
      { ...valid, items: [{ ...item, product_id: 2 ** 31 }] },
      /product_id/,
    ],
    ['items as an object', { ...valid, items: item }, /items/],
    ['a JSON array body', [valid], /body/],
  ])('answers 400 for %s, creating nothing', async (_name, body, message) => {
    const before = await orderCount();
    expectShopError(await post(body), 400, message);
    expect(await orderCount()).toBe(before);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    const headers = { 'content-type': 'application/json' };
    expectShopError(
      await t.request({ method: 'POST', url: '/orders', headers, payload: '{"items": [' }),
      400,
    );
    expectShopError(
      await t.request({
        method: 'POST',
        url: '/orders',
        headers: { 'content-type': 'application/xml' },
        payload: '<order/>',
      }),
      415,
    );
  });

  it('answers 400 naming a missing or inactive product, creating nothing', async () => {
    const before = await orderCount();
    const bowl = { product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 };
    expectShopError(
      await post(orderBody([bowl, { product_id: 999999, quantity: 1, price: 1 }])),
      400,
      /product 999999 does not exist/,
    );
    const old = ids.productId('Old collar');
    expectShopError(
      await post(orderBody([bowl, { product_id: old, quantity: 1, price: 5 }])),
      400,
      new RegExp(`product ${old} \\(Old collar\\) is not available`),
    );
    expect(await orderCount()).toBe(before);
  });

  it('refuses a price that is not the catalogue price with 409 giving it, writing nothing', async () => {
    const red = ids.productId('Red tracking lead');
    const blue = ids.productId('Blue lead');
    const stock = [await stockOf(t.app, red), await stockOf(t.app, blue)];
    const before = await orderCount();
    expectShopError(
      await post(
        orderBody([
          { product_id: blue, quantity: 1, price: 19.99 },
          { product_id: red, quantity: 1, price: 35 },
        ]),
      ),
      409,
      new RegExp(`price of product ${red} \\(Red tracking lead\\) is 39.90, not 35.00`),
    );
    expect(await orderCount()).toBe(before);
    expect([await stockOf(t.app, red), await stockOf(t.app, blue)]).toEqual(stock);
  });

  it('accepts a price equal to the cent and refuses one a cent off', async () => {
    const blue = ids.productId('Blue lead');
    expect(
      (await post(orderBody([{ product_id: blue, quantity: 1, price: 19.99 }]))).statusCode,
    ).toBe(201);
    expectShopError(
      await post(orderBody([{ product_id: blue, quantity: 1, price: 19.98 }])),
      409,
      /19.99/,
    );
    expectShopError(
      await post(orderBody([{ product_id: blue, quantity: 1, price: 19.994 }])),
      409,
      /is 19.99, not 19.994/,
    );
  });

  it('refuses merged lines when one of them carries a wrong price', async () => {
    const blue = ids.productId('Blue lead');
    expectShopError(
      await post(
        orderBody([
          { product_id: blue, quantity: 1, price: 19.99 },
          { product_id: blue, quantity: 1, price: 9.99 },
        ]),
      ),
      409,
      /is 19.99, not 9.99/,
    );
  });

  it('answers 409 insufficient stock naming the product, and rolls back the other lines', async () => {
    const plenty = await addProduct(t.app, 'Plenty', '1.00', 50);
    const scarce = await addProduct(t.app, 'Scarce', '1.00', 2);
    const before = await orderCount();
    expectShopError(
      await post(
        orderBody([
          { product_id: plenty, quantity: 5, price: 1 },
          { product_id: scarce, quantity: 3, price: 1 },
        ]),
      ),
      409,
      new RegExp(`insufficient stock for product ${scarce} \\(Scarce\\): 2 available, 3 requested`),
    );
    expect([await stockOf(t.app, plenty), await stockOf(t.app, scarce)]).toEqual([50, 2]);
    expect(await orderCount()).toBe(before);
  });

  it('counts merged quantities against the stock', async () => {
    const id = await addProduct(t.app, 'Three left', '1.00', 3);
    expectShopError(
      await post(
        orderBody([
          { product_id: id, quantity: 2, price: 1 },
          { product_id: id, quantity: 2, price: 1 },
        ]),
      ),
      409,
      /insufficient stock/,
    );
    expect(await stockOf(t.app, id)).toBe(3);
  });

  it('refuses an order whose total exceeds the largest amount with 400', async () => {
    const id = await addProduct(t.app, 'Gold kennel', '99999999.99', 10);
    expectShopError(
      await post(orderBody([{ product_id: id, quantity: 2, price: 99999999.99 }])),
      400,
      /total/,
    );
    expect(await stockOf(t.app, id)).toBe(10);
  });

  it('answers with the first rule broken: product, then price, then total, then stock, by product id', async () => {
    const cheap = await addProduct(t.app, 'Precedence cheap', '2.00', 1);
    const gold = await addProduct(t.app, 'Precedence gold', '99999999.99', 5);
    const scarce = await addProduct(t.app, 'Precedence scarce', '1.00', 1);
    const old = ids.productId('Old collar');
    const before = await orderCount();
    const stock = async () => Promise.all([cheap, gold, scarce].map((id) => stockOf(t.app, id)));
    const stockBefore = await stock();
    const cases: Array<[string, OrderLine[], number, RegExp]> = [
      [
        'an unknown product before a wrong price',
        [
          { product_id: cheap, quantity: 1, price: 3 },
          { product_id: 999999, quantity: 1, price: 1 },
        ],
        400,
        /^product 999999 does not exist$/,
      ],
      [
        'the lower product id first: inactive before unknown',
        [
          { product_id: 999999, quantity: 1, price: 1 },
          { product_id: old, quantity: 1, price: 1 },
        ],
        400,
        new RegExp(`^product ${old} \\(Old collar\\) is not available$`),
      ],
      [
        'a wrong price before too little stock',
        [{ product_id: cheap, quantity: 5, price: 3 }],
        409,
        /is 2.00, not 3.00$/,
      ],
      [
        'a wrong price before a total over the maximum',
        [
          { product_id: gold, quantity: 2, price: 99999999.99 },
          { product_id: cheap, quantity: 1, price: 1 },
        ],
        409,
        new RegExp(`^price of product ${cheap} `),
      ],
      [
        'a total over the maximum before too little stock',
        [{ product_id: gold, quantity: 6, price: 99999999.99 }],
        400,
        /^order total 599999999.94 exceeds the maximum of 99999999.99$/,
      ],
      [
        'too little stock: the lower product id, whatever the order of the lines',
        [
          { product_id: scarce, quantity: 2, price: 1 },
          { product_id: cheap, quantity: 2, price: 2 },
        ],
        409,
        new RegExp(
          `^insufficient stock for product ${cheap} \\(Precedence cheap\\): 1 available, 2 requested$`,
        ),
      ],
      [
        'prices sent for one product that disagree: the first wrong one',
        [
          { product_id: scarce, quantity: 1, price: 1.5 },
          { product_id: scarce, quantity: 1, price: 1 },
        ],
        409,
        /is 1.00, not 1.50$/,
      ],
    ];
    for (const [name, items, status, message] of cases) {
      const res = await post(orderBody(items));
      expect({ name, status: res.statusCode, error: res.json().error }).toEqual({
        name,
        status,
        error: expect.stringMatching(message),
      });
    }
    expect(await orderCount()).toBe(before);
    expect(await stock()).toEqual(stockBefore);
  });

  it('takes the exact stock of an order naming a product twice, down to zero', async () => {
    const id = await addProduct(t.app, 'Twice to zero', '0.10', 5);
    const orderId = await placeOrder([
      { product_id: id, quantity: 3, price: 0.1 },
      { product_id: id, quantity: 2, price: 0.1 },
    ]);
    expect(await stockOf(t.app, id)).toBe(0);
    expect((await getOrder(orderId)).json().data).toMatchObject({
      total_amount: 0.5,
      items: [{ product_id: id, quantity: 5, price: 0.1, total_price: 0.5 }],
    });
  });

  it('stores unicode names as sent', async () => {
    const res = await post(
      orderBody(
        [
          {
            product_id: ids.productId('Dog bowl'),
            quantity: 1,
            price: 9.5,
            product_name: '🐕 Näpfchen',
          },
        ],
        {
          customer_name: 'Zoë Ørsted 🐾 山田',
        },
      ),
    );
    expect(res.statusCode).toBe(201);
    const detail = (await getOrder(res.json().data.order_id)).json().data;
    expect(detail.customer_name).toBe('Zoë Ørsted 🐾 山田');
    expect(detail.items[0].product_name).toBe('Dog bowl');
  });
});

describe('GET /orders/:id', () => {
  it('shows the order with its items, matching the contract', async () => {
    const blue = ids.productId('Blue lead');
    const bowl = ids.productId('Dog bowl');
    const orderId = await placeOrder([
      { product_id: bowl, quantity: 2, price: 9.5 },
      { product_id: blue, quantity: 1, price: 19.99 },
    ]);
    const res = await getOrder(orderId);
    expect(res.statusCode).toBe(200);
    expectContract(OrderDetailResponseSchema, res.json());
    const detail = res.json().data;
    expect(detail).toMatchObject({
      id: orderId,
      customer_name: 'Ann Handler',
      customer_email: 'ann@example.com',
      total_amount: 38.99,
      status: 'pending',
    });
    expect(Date.parse(detail.created_at)).not.toBeNaN();
    expect(detail.items).toEqual(
      [
        {
          product_id: blue,
          product_name: 'Blue lead',
          quantity: 1,
          price: 19.99,
          total_price: 19.99,
        },
        { product_id: bowl, product_name: 'Dog bowl', quantity: 2, price: 9.5, total_price: 19 },
      ].sort((a, b) => a.product_id - b.product_id),
    );
  });

  it('answers 404 for a missing order and 400 for an invalid id', async () => {
    expectShopError(await getOrder(999999), 404, /Order 999999 not found/);
    expectShopError(await t.request({ method: 'GET', url: '/orders/abc' }), 400, /id/);
    expectShopError(await t.request({ method: 'GET', url: '/orders/0' }), 400, /id/);
  });
});

describe('PUT /orders/:id', () => {
  const newOrder = (quantity = 1) =>
    placeOrder([{ product_id: ids.productId('Dog bowl'), quantity, price: 9.5 }]);

  async function walk(orderId: number, path: OrderStatus[]): Promise<void> {
    for (const status of path) expect((await setStatus(orderId, status)).statusCode).toBe(200);
  }

  it.each<[OrderStatus[]]>([
    [['confirmed']],
    [['cancelled']],
    [['confirmed', 'shipped']],
    [['confirmed', 'cancelled']],
    [['confirmed', 'shipped', 'delivered']],
  ])('follows the allowed path pending → %j, recording each change', async (path) => {
    const orderId = await newOrder();
    let from: OrderStatus = 'pending';
    for (const to of path) {
      const res = await setStatus(orderId, to);
      expect(res.statusCode).toBe(200);
      expectContract(SuccessMessageSchema, res.json());
      expect(res.json().message).toBe(`Order ${orderId} status changed from ${from} to ${to}`);
      from = to;
    }
    expect((await getOrder(orderId)).json().data.status).toBe(path.at(-1));
    const history = await t.app.db.orderStatusChange.findMany({
      where: { orderId },
      orderBy: { id: 'asc' },
    });
    expect(history.map((h) => h.toStatus)).toEqual(['pending', ...path]);
    expect(history.map((h) => h.fromStatus)).toEqual([null, 'pending', ...path.slice(0, -1)]);
    const times = history.map((h) => h.changedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('answers 200 without a change or history row when the status is already set', async () => {
    const orderId = await newOrder();
    await walk(orderId, ['confirmed']);
    const res = await setStatus(orderId, 'confirmed');
    expect(res.statusCode).toBe(200);
    expectContract(SuccessMessageSchema, res.json());
    expect(res.json().message).toBe(`Order ${orderId} is already confirmed`);
    expect(await t.app.db.orderStatusChange.count({ where: { orderId } })).toBe(2);
  });

  it.each<[OrderStatus[], OrderStatus]>([
    [[], 'shipped'],
    [[], 'delivered'],
    [['confirmed'], 'pending'],
    [['confirmed'], 'delivered'],
    [['confirmed', 'shipped'], 'cancelled'],
    [['confirmed', 'shipped'], 'pending'],
    [['confirmed', 'shipped', 'delivered'], 'cancelled'],
    [['confirmed', 'shipped', 'delivered'], 'shipped'],
    [['cancelled'], 'pending'],
    [['cancelled'], 'confirmed'],
  ])('after %j refuses a change to %s with 409 naming both statuses', async (path, to) => {
    const orderId = await newOrder();
    await walk(orderId, path);
    const from = path.at(-1) ?? 'pending';
    const historyBefore = await t.app.db.orderStatusChange.count({ where: { orderId } });
    expectShopError(
      await setStatus(orderId, to),
      409,
      new RegExp(`cannot change order ${orderId} from ${from} to ${to}`),
    );
    expect((await getOrder(orderId)).json().data.status).toBe(from);
    expect(await t.app.db.orderStatusChange.count({ where: { orderId } })).toBe(historyBefore);
  });

  it('returns the stock when a pending or confirmed order is cancelled', async () => {
    const a = await addProduct(t.app, 'Cancel A', '1.00', 10);
    const b = await addProduct(t.app, 'Cancel B', '2.00', 10);
    const lines = [
      { product_id: a, quantity: 2, price: 1 },
      { product_id: b, quantity: 1, price: 2 },
      { product_id: a, quantity: 1, price: 1 },
    ];
    const pending = await placeOrder(lines);
    const confirmed = await placeOrder(lines);
    await walk(confirmed, ['confirmed']);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([4, 8]);
    await walk(pending, ['cancelled']);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([7, 9]);
    await walk(confirmed, ['cancelled']);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([10, 10]);
    // Cancelling again is a no-op and must not return the stock twice.
    await walk(confirmed, ['cancelled']);
    expect([await stockOf(t.app, a), await stockOf(t.app, b)]).toEqual([10, 10]);
  });

  it('leaves the stock alone on other changes', async () => {
    const id = await addProduct(t.app, 'Shipped goods', '1.00', 5);
    const orderId = await placeOrder([{ product_id: id, quantity: 2, price: 1 }]);
    await walk(orderId, ['confirmed', 'shipped', 'delivered']);
    expect(await stockOf(t.app, id)).toBe(3);
  });

  it.each([
    ['an unknown status', { status: 'lost' }, /status/],
    ['a status in capitals', { status: 'CANCELLED' }, /status/],
    ['a missing status', {}, /status/],
    ['a numeric status', { status: 1 }, /status/],
    ['an unknown field', { status: 'confirmed', note: 'hi' }, /unknown field 'note'/],
  ])('answers 400 for %s', async (_name, payload, message) => {
    const orderId = await newOrder();
    expectShopError(
      await t.request({ method: 'PUT', url: `/orders/${orderId}`, payload }),
      400,
      message,
    );
    expect((await getOrder(orderId)).json().data.status).toBe('pending');
  });

  it('answers 404 for a missing order', async () => {
    expectShopError(await setStatus(999999, 'confirmed'), 404, /Order 999999 not found/);
  });
});
