// The product search: every whitespace-separated term must occur, case-insensitively and taken
// literally, in the name or the description. It runs on `search_text` (the two lower-cased and
// joined by a newline, computed by PostgreSQL), so these pin what that column must keep true.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogue(t.app, {
    categories: [{ name: 'Gear', description: 'Gear', parent: null }],
    products: [
      { name: 'Alpha', description: 'Beta harness', price: 30, category: 'Gear', stock: 1 },
      { name: 'Über Leine', description: 'Straße, 5 m', price: 20, category: 'Gear', stock: 1 },
      { name: 'Grün halsband', description: 'Nylon', price: 10, category: 'Gear', stock: 1 },
      { name: 'Nylon lead', description: 'Green, 10 m', price: 15, category: 'Gear', stock: 1 },
      {
        name: 'Hidden nylon',
        description: 'Off',
        price: 1,
        category: 'Gear',
        stock: 1,
        active: false,
      },
    ],
  });
});
afterAll(() => t.close());

async function search(query: Record<string, string>) {
  const res = await t.request({ method: 'GET', url: '/products', query });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Array<{ name: string }>; pagination: { total: number } }>();
}
const names = (body: { data: Array<{ name: string }> }) => body.data.map((p) => p.name);

describe('GET /products?search', () => {
  it('matches one term in the name and another in the description', async () => {
    expect(names(await search({ search: 'alpha HARNESS' }))).toEqual(['Alpha']);
  });

  it('never matches a term across the end of the name and the start of the description', async () => {
    const body = await search({ search: 'alphabeta' });
    expect(body.pagination.total).toBe(0);
    expect(body.data).toEqual([]);
  });

  it('folds the case of non-ASCII letters like ILIKE does', async () => {
    expect(names(await search({ search: 'über' }))).toEqual(['Über Leine']);
    expect(names(await search({ search: 'GRÜN' }))).toEqual(['Grün halsband']);
    expect(names(await search({ search: 'STRASSE' }))).toEqual([]);
    expect(names(await search({ search: 'straße' }))).toEqual(['Über Leine']);
  });

  it('sees a renamed product under its new name at once', async () => {
    await t.app.db.product.updateMany({ where: { name: 'Alpha' }, data: { name: 'Gamma' } });
    expect(names(await search({ search: 'gamma' }))).toEqual(['Gamma']);
    expect(await search({ search: 'alpha' })).toMatchObject({ pagination: { total: 0 } });
    await t.app.db.product.updateMany({ where: { name: 'Gamma' }, data: { name: 'Alpha' } });
  });

  it('pages and sorts the matches, with the total of all of them', async () => {
    const first = await search({ search: 'nylon', sort: 'price_asc', limit: '1', page: '1' });
    const second = await search({ search: 'nylon', sort: 'price_asc', limit: '1', page: '2' });
    const beyond = await search({ search: 'nylon', sort: 'price_asc', limit: '1', page: '3' });
    expect([...names(first), ...names(second)]).toEqual(['Grün halsband', 'Nylon lead']);
    expect([first, second, beyond].map((b) => b.pagination.total)).toEqual([2, 2, 2]);
    expect(beyond.data).toEqual([]);
    const byName = await search({ search: 'nylon', sort: 'name' });
    expect(names(byName)).toEqual(['Grün halsband', 'Nylon lead']);
  });

  it('sees a price change across units, a deactivation and a reactivation at once', async () => {
    // The search reads its postings per whole unit of price (migration *_product_search_postings).
    const inRange = { search: 'lead', min_price: '14', max_price: '16' };
    expect(names(await search(inRange))).toEqual(['Nylon lead']);
    await t.app.db.product.updateMany({ where: { name: 'Nylon lead' }, data: { price: 42.5 } });
    expect(await search(inRange)).toMatchObject({ pagination: { total: 0 } });
    expect(names(await search({ search: 'lead', min_price: '42.5', max_price: '42.5' }))).toEqual([
      'Nylon lead',
    ]);
    await t.app.db.product.updateMany({ where: { name: 'Nylon lead' }, data: { active: false } });
    expect(await search({ search: 'lead' })).toMatchObject({ pagination: { total: 0 } });
    await t.app.db.product.updateMany({
      where: { name: 'Nylon lead' },
      data: { active: true, price: 15 },
    });
    expect(names(await search(inRange))).toEqual(['Nylon lead']);
  });

  it('combines a search with price bounds', async () => {
    const body = await search({ search: 'nylon', min_price: '12', max_price: '20' });
    expect(names(body)).toEqual(['Nylon lead']);
    expect(body.pagination.total).toBe(1);
  });
});
