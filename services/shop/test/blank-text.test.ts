// A required text of only spaces is refused with a 400 naming its field, as the documents'
// pattern promises (NOT_BLANK_PATTERN), on every back-office write that takes one: never
// stored as an empty name, title or reason.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { addProduct, orderBody } from './support/orders.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let admin: SignedInStaffMember;
let product: number;
let category: number;
let order: number;
let staffId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await staffMember(t, 'admin');
  product = await addProduct(t.app, 'Blank test lead', '9.50', 10);
  category = (await send('POST', '/admin/categories', { name: 'Blank tests' })).json().data.id;
  const placed = await t.request({
    method: 'POST',
    url: '/orders',
    payload: orderBody([{ product_id: product, quantity: 1, price: 9.5 }]),
  });
  order = placed.json().data.order_id;
  staffId = (
    await send('POST', '/admin/staff', { email: 'blank@shop.example', name: 'Bea', role: 'staff' })
  ).json().data.id;
});
afterAll(() => t.close());

function send(method: 'POST' | 'PATCH', url: string, payload: object) {
  return t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${admin.token}` },
  });
}

const BLANK = ' \t  ';

describe('a text of only spaces', () => {
  it.each([
    [
      'POST',
      '/admin/staff',
      () => ({ email: 'b2@shop.example', name: BLANK, role: 'staff' }),
      'name',
    ],
    ['PATCH', '/admin/staff/:staff', () => ({ name: BLANK }), 'name'],
    ['POST', '/admin/api-keys', () => ({ type: 'publishable', title: BLANK }), 'title'],
    ['POST', '/admin/categories', () => ({ name: BLANK }), 'name'],
    ['PATCH', '/admin/categories/:category', () => ({ name: BLANK }), 'name'],
    [
      'POST',
      '/admin/products',
      () => ({ name: BLANK, price: 1, category_id: category, stock: 1 }),
      'name',
    ],
    ['PATCH', '/admin/products/:product', () => ({ name: BLANK }), 'name'],
    ['POST', '/admin/products/:product/stock', () => ({ delta: 1, reason: BLANK }), 'reason'],
    ['POST', '/admin/orders/:order/notes', () => ({ text: BLANK }), 'text'],
    ['POST', '/admin/orders/:order/status', () => ({ status: 'confirmed', note: BLANK }), 'note'],
  ] as const)('%s %s is refused, naming the field', async (method, url, body, field) => {
    const ids: Record<string, number> = { staff: staffId, category, product, order };
    const res = await send(
      method,
      url.replace(/:(\w+)/, (_, name: string) => String(ids[name])),
      body(),
    );
    expectShopError(res, 400, new RegExp(`\\b${field}\\b`));
  });
});
