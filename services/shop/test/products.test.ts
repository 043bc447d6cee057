import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CategoryListResponseSchema,
  ProductDetailResponseSchema,
  ProductListResponseSchema,
} from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectContract, expectShopError } from './support/contract.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await seedCatalogue(t.app);
});
afterAll(() => t.close());

const names = (body: { data: Array<{ name: string }> }) => body.data.map((p) => p.name);

describe('GET /products', () => {
  it('lists active products newest first with pagination, matching the contract', async () => {
    const res = await t.request({ method: 'GET', url: '/products' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expectContract(ProductListResponseSchema, body);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 4, pages: 1 });
    expect(names(body)).not.toContain('Old collar');
    const created = body.data.map((p: { created_at: string; id: number }) => [p.created_at, p.id]);
    const sorted = [...created].sort((a, b) =>
      a[0] === b[0] ? b[1] - a[1] : b[0].localeCompare(a[0]),
    );
    expect(created).toEqual(sorted);
  });

  it('renders prices as numbers with at most two decimals', async () => {
    const body = (await t.request({ method: 'GET', url: '/products?sort=price_asc' })).json();
    expect(body.data.map((p: { price: number }) => p.price)).toEqual([9.5, 19.99, 39.9, 499]);
  });

  it('includes descendants in the category filter', async () => {
    const body = (
      await t.request({ method: 'GET', url: `/products?category=${ids.categoryId('Leads')}` })
    ).json();
    expect(names(body).sort()).toEqual(['Blue lead', 'Red tracking lead']);
  });

  it('requires every search term in name or description, case-insensitively', async () => {
    const one = (await t.request({ method: 'GET', url: '/products?search=LEAD' })).json();
    expect(names(one).sort()).toEqual(['Blue lead', 'Red tracking lead']);
    const both = (
      await t.request({ method: 'GET', url: '/products?search=lead%20biothane' })
    ).json();
    expect(names(both)).toEqual(['Red tracking lead']);
  });

  it('treats search input as text, not SQL or a pattern', async () => {
    for (const search of ["' OR 1=1 --", '%', '_', '\\', '"; DROP TABLE products; --', '😀 ü']) {
      const res = await t.request({ method: 'GET', url: '/products', query: { search } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
    }
  });

  it('applies inclusive price bounds', async () => {
    const body = (
      await t.request({ method: 'GET', url: '/products?min_price=19.99&max_price=39.9' })
    ).json();
    expect(names(body).sort()).toEqual(['Blue lead', 'Red tracking lead']);
  });

  it('pages deterministically', async () => {
    const p1 = (await t.request({ method: 'GET', url: '/products?limit=3&page=1' })).json();
    const p2 = (await t.request({ method: 'GET', url: '/products?limit=3&page=2' })).json();
    expect(p1.pagination).toEqual({ page: 1, limit: 3, total: 4, pages: 2 });
    expect(p2.data).toHaveLength(1);
    expect(new Set([...names(p1), ...names(p2)]).size).toBe(4);
  });

  it.each([
    ['page=0', /page/],
    ['limit=0', /limit/],
    ['limit=51', /limit/],
    ['page=abc', /page/],
    ['min_price=-1', /min_price/],
    ['min_price=50&max_price=10', /min_price/],
    ['category=abc', /category/],
    ['category=99999999999', /category/],
    ['sort=cheapest', /sort/],
    ['unknown=1', /unknown/],
  ])('answers 400 for %s', async (query, message) => {
    expectShopError(await t.request({ method: 'GET', url: `/products?${query}` }), 400, message);
  });

  it('accepts the page and limit edges', async () => {
    for (const query of ['page=1', 'limit=1', 'limit=50']) {
      expect((await t.request({ method: 'GET', url: `/products?${query}` })).statusCode).toBe(200);
    }
  });
});

describe('GET /products/:id', () => {
  it('shows an active product with its reviews, matching the contract', async () => {
    const res = await t.request({ method: 'GET', url: `/products/${ids.productId('Blue lead')}` });
    expect(res.statusCode).toBe(200);
    expectContract(ProductDetailResponseSchema, res.json());
    expect(res.json().data).toMatchObject({
      name: 'Blue lead',
      category_name: 'Leads',
      price: 19.99,
      reviews: [],
    });
  });

  it('answers 404 for inactive and missing products, 400 for non-numeric ids', async () => {
    expectShopError(
      await t.request({ method: 'GET', url: `/products/${ids.productId('Old collar')}` }),
      404,
    );
    expectShopError(await t.request({ method: 'GET', url: '/products/999999' }), 404);
    expectShopError(await t.request({ method: 'GET', url: '/products/abc' }), 400);
    expectShopError(await t.request({ method: 'GET', url: '/products/1.5' }), 400);
  });
});

describe('GET /categories', () => {
  it('lists active categories by sort_order then name', async () => {
    const res = await t.request({ method: 'GET', url: '/categories' });
    expectContract(CategoryListResponseSchema, res.json());
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual([
      'Leads',
      'Optics',
      'Tracking leads',
      'Dogs',
    ]);
  });
});
