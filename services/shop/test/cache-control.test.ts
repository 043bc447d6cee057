import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { bearer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PRIVATE = 'private, no-store';

describe('Cache-Control', () => {
  it('is private, no-store on every answer carrying a token or personal data, errors included', async () => {
    const email = 'cache.control@example.com';
    const register = await t.request({
      method: 'POST',
      url: '/customers/register',
      payload: { email, password: 'correct horse battery', first_name: 'C', last_name: 'C' },
    });
    const { customer_id: id, token } = register.json().data as {
      customer_id: number;
      token: string;
    };
    const asCustomer = bearer(token);
    const productId = await addProduct(t.app, 'No-store lead', '12.50', 10);
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: productId, quantity: 1, price: 12.5 }]),
    });
    const orderId = (order.json().data as { order_id: number }).order_id;
    const answers = {
      register,
      login: await t.request({
        method: 'POST',
        url: '/customers/login',
        payload: { email, password: 'correct horse battery' },
      }),
      wrongLogin: await t.request({
        method: 'POST',
        url: '/customers/login',
        payload: { email, password: 'not the password' },
      }),
      profile: await t.app.inject({
        method: 'GET',
        url: `/customers/${id}/profile`,
        headers: asCustomer,
      }),
      profileWithoutToken: await t.app.inject({ method: 'GET', url: `/customers/${id}/profile` }),
      updateProfile: await t.app.inject({
        method: 'PUT',
        url: `/customers/${id}/profile`,
        headers: asCustomer,
        payload: { phone: '+49 30 1' },
      }),
      address: await t.app.inject({
        method: 'POST',
        url: `/customers/${id}/addresses`,
        headers: asCustomer,
        payload: {
          first_name: 'C',
          last_name: 'C',
          address: 'Forest road 1',
          city: 'Berlin',
          postal_code: '10115',
          country: 'DE',
        },
      }),
      order,
      getOrder: await t.request({ method: 'GET', url: `/orders/${orderId}` }),
      updateOrder: await t.request({
        method: 'PUT',
        url: `/orders/${orderId}`,
        payload: { status: 'confirmed' },
      }),
      subscribe: await t.request({
        method: 'POST',
        url: '/newsletter/subscribe',
        payload: { email: 'reader@example.com', first_name: 'R', last_name: 'R' },
      }),
      unsubscribe: await t.request({
        method: 'POST',
        url: '/newsletter/unsubscribe',
        payload: { email: 'reader@example.com' },
      }),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, res]) => [
        name,
        [res.statusCode, res.headers['cache-control']],
      ]),
    );
    expect(seen).toEqual({
      register: [201, PRIVATE],
      login: [200, PRIVATE],
      wrongLogin: [401, PRIVATE],
      profile: [200, PRIVATE],
      profileWithoutToken: [401, PRIVATE],
      updateProfile: [200, PRIVATE],
      address: [201, PRIVATE],
      order: [201, PRIVATE],
      getOrder: [200, PRIVATE],
      updateOrder: [200, PRIVATE],
      subscribe: [201, PRIVATE],
      unsubscribe: [200, PRIVATE],
    });
  });

  it('is not no-store on catalogue reads', async () => {
    for (const url of ['/products', '/categories']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/no-store/);
    }
  });
});
