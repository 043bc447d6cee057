import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StatsResponseSchema } from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectContract, expectShopError } from './support/contract.js';
import { registerCustomer } from './support/customers.js';
import { orderBody } from './support/orders.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /stats', () => {
  it('counts active products and categories, and all orders and customers', async () => {
    const empty = await t.request({ method: 'GET', url: '/stats' });
    expectContract(StatsResponseSchema, empty.json());
    expect(empty.json().data).toEqual({ products: 0, categories: 0, orders: 0, customers: 0 });

    const ids = await seedCatalogue(t.app);
    await registerCustomer(t);
    await registerCustomer(t);
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: ids.productId('Dog bowl'), quantity: 1, price: 9.5 }]),
    });
    expect(order.statusCode).toBe(201);
    // A cancelled order still counts: `orders` counts all.
    await t.request({
      method: 'PUT',
      url: `/orders/${order.json().data.order_id}`,
      payload: { status: 'cancelled' },
    });

    const res = await t.request({ method: 'GET', url: '/stats' });
    expectContract(StatsResponseSchema, res.json());
    // The test catalogue has 4 active of 5 products and 4 active of 5 categories.
    expect(res.json().data).toEqual({ products: 4, categories: 4, orders: 1, customers: 2 });
  });

  it('needs the API key', async () => {
    expectShopError(await t.app.inject({ method: 'GET', url: '/stats' }), 401);
  });
});
