// Strict input: numbers in paths and query strings only in plain decimal notation, and U+0000
// refused (attacks.test.ts covers every body field). Requests Node's HTTP parser refuses are
// answered in the shop's envelope: service-kit.test.ts, the suite both services share.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectShopError } from './support/contract.js';

let t: TestApp;
let bowl: number;

beforeAll(async () => {
  t = await createTestApp();
  bowl = (await seedCatalogue(t.app)).productId('Dog bowl');
});
afterAll(() => t?.close());

describe('numbers in paths and query strings', () => {
  it('refuses every spelling of an id but the plain decimal one, naming the field', async () => {
    const spellings = [
      `0x${bowl.toString(16)}`,
      `${bowl}.0`,
      `0${bowl}`,
      `+${bowl}`,
      `%20${bowl}`,
      `${bowl}%20`,
      `${bowl}e0`,
      '-0',
    ];
    for (const spelling of spellings) {
      for (const url of [`/products/${spelling}`, `/products/${spelling}/reviews`]) {
        expectShopError(
          await t.request({ method: 'GET', url }),
          400,
          /^params\.id must be a plain decimal integer$/,
        );
      }
    }
    const plain = await t.request({ method: 'GET', url: `/products/${bowl}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.id).toBe(bowl);
  });

  it.each([
    ['page=0x10', 'page', 'integer'],
    ['page=01', 'page', 'integer'],
    ['limit=1e1', 'limit', 'integer'],
    ['limit=%2010', 'limit', 'integer'],
    ['min_price=1e2', 'min_price', 'number'],
    ['max_price=%2B5', 'max_price', 'number'],
    ['min_price=0x10', 'min_price', 'number'],
    ['category=1.0', 'category', 'integer'],
  ])('refuses ?%s with 400 naming the field', async (query, field, kind) => {
    expectShopError(
      await t.request({ method: 'GET', url: `/products?${query}` }),
      400,
      new RegExp(`^querystring\\.${field} must be a plain decimal ${kind}$`),
    );
  });

  it('still reads plain decimals: prices with decimals, pages and limits', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/products?min_price=10.5&max_price=100.00&page=1&limit=10',
    });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .data.map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['Blue lead', 'Red tracking lead']);
    expect(res.json().pagination).toMatchObject({ page: 1, limit: 10 });
    const reviews = await t.request({ method: 'GET', url: `/products/${bowl}/reviews?limit=5` });
    expect(reviews.statusCode).toBe(200);
  });
});

describe('U+0000', () => {
  it('is refused in a path parameter and in the query string, naming the field', async () => {
    expectShopError(
      await t.request({ method: 'GET', url: `/products/${bowl}%00` }),
      400,
      /^params\.id must not contain the character U\+0000$/,
    );
    expectShopError(
      await t.request({ method: 'GET', url: '/products?sort=name%00' }),
      400,
      /^querystring\.sort must not contain the character U\+0000$/,
    );
  });
});
