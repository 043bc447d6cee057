// Search terms the token index cannot serve alone, or could get wrong: terms of one and two
// characters (no trigram to look up: their LIKE filters), LIKE's wildcards taken literally, a
// term inside a token or ending in its punctuation, a non-ASCII space inside a token, and a
// product renamed through the API (its new tokens added by the trigger, its old ones no longer
// matching) found at once. Each expectation is the exact list and total.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { bearer } from './support/customers.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;

const product = (name: string, description: string, price = 10) => ({
  name,
  description,
  price,
  category: 'Gear',
  stock: 1,
});

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff');
  await seedCatalogue(t.app, {
    categories: [{ name: 'Gear', description: 'Gear', parent: null }],
    products: [
      product('Q lead', 'Short, 1 m', 5),
      product('Ox harness', 'Wide strap', 25),
      product('Tug toy', 'Rope, knotted', 8),
      product('Sale 50% collar', 'Half price', 12),
      product('Collar 50 mm', 'Wide', 30),
      product('snake_case tag', 'Engraved', 4),
      product('snakeXcase tag', 'Printed', 4),
      product('Blue\u00a0rope', 'Braided', 9),
    ],
  });
});
afterAll(() => t.close());

async function search(query: Record<string, string>) {
  const res = await t.request({
    method: 'GET',
    url: '/products',
    query: { sort: 'name', ...query },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ data: Array<{ name: string }>; pagination: { total: number } }>();
  return { names: body.data.map((p) => p.name), total: body.pagination.total };
}

describe('GET /products?search: terms the token index cannot serve alone', () => {
  it('finds terms of one character anywhere in a name or description', async () => {
    expect(await search({ search: 'q' })).toEqual({ names: ['Q lead'], total: 1 });
    expect(await search({ search: 'X' })).toEqual({
      names: ['Ox harness', 'snakeXcase tag'],
      total: 2,
    });
  });

  it('finds terms of two characters, alone and beside a longer term', async () => {
    expect(await search({ search: 'ox' })).toEqual({ names: ['Ox harness'], total: 1 });
    expect(await search({ search: 'ug' })).toEqual({ names: ['Tug toy'], total: 1 });
    expect(await search({ search: 'wide ox' })).toEqual({ names: ['Ox harness'], total: 1 });
    expect(await search({ search: 'collar 50' })).toEqual({
      names: ['Collar 50 mm', 'Sale 50% collar'],
      total: 2,
    });
    expect(await search({ search: 'collar 5 mm' })).toEqual({ names: ['Collar 50 mm'], total: 1 });
    expect(await search({ search: 'rope zz' })).toEqual({ names: [], total: 0 });
  });

  it('takes % and _ literally', async () => {
    expect(await search({ search: '%' })).toEqual({ names: ['Sale 50% collar'], total: 1 });
    expect(await search({ search: '50%' })).toEqual({ names: ['Sale 50% collar'], total: 1 });
    expect(await search({ search: '0% collar' })).toEqual({ names: ['Sale 50% collar'], total: 1 });
    expect(await search({ search: '_' })).toEqual({ names: ['snake_case tag'], total: 1 });
    expect(await search({ search: 'snake_case' })).toEqual({ names: ['snake_case tag'], total: 1 });
    expect(await search({ search: 'e_c' })).toEqual({ names: ['snake_case tag'], total: 1 });
    expect(await search({ search: '%%' })).toEqual({ names: [], total: 0 });
    expect(await search({ search: 'e__c' })).toEqual({ names: [], total: 0 });
  });

  it('finds a term inside a word, with its punctuation, and inside a non-ASCII space', async () => {
    expect(await search({ search: 'arnes' })).toEqual({ names: ['Ox harness'], total: 1 });
    expect(await search({ search: 'short,' })).toEqual({ names: ['Q lead'], total: 1 });
    expect(await search({ search: 'rope,' })).toEqual({ names: ['Tug toy'], total: 1 });
    // The service splits on JavaScript's \s (a no-break space too), the tokens only on ASCII
    // whitespace: "rope" is inside the token "blue\u00a0rope".
    expect(await search({ search: 'rope' })).toEqual({
      names: ['Blue\u00a0rope', 'Tug toy'],
      total: 2,
    });
    expect(await search({ search: 'blue\u00a0rope' })).toEqual({
      names: ['Blue\u00a0rope'],
      total: 1,
    });
  });

  it('finds a product renamed through the API by its new name, and no longer by its old one, at once', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/products',
      headers: bearer(clerk.token),
      payload: {
        name: 'Quokkafur vest',
        description: 'Warm',
        price: 40,
        category_id: (await t.app.db.category.findFirstOrThrow({ where: { name: 'Gear' } })).id,
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ data: { id: number } }>().data.id;
    expect(await search({ search: 'quokkafur' })).toEqual({ names: ['Quokkafur vest'], total: 1 });

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/admin/products/${id}`,
      headers: bearer(clerk.token),
      payload: { name: 'Wombatwool vest' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(await search({ search: 'wombatwool' })).toEqual({
      names: ['Wombatwool vest'],
      total: 1,
    });
    expect(await search({ search: 'WOMBATWOOL vest' })).toEqual({
      names: ['Wombatwool vest'],
      total: 1,
    });
    expect(await search({ search: 'quokkafur' })).toEqual({ names: [], total: 0 });
    expect(await search({ search: 'okkaf' })).toEqual({ names: [], total: 0 });
  });
});

describe("GET /admin/products?q: the back office's search matches terms as the storefront's does", () => {
  async function adminSearch(q: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/products',
      headers: bearer(clerk.token),
      query: { q, sort: 'name', limit: '100' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: Array<{ name: string }>; pagination: { total: number } }>();
    return { names: body.data.map((p) => p.name), total: body.pagination.total };
  }

  it.each([
    ['q', ['Q lead']],
    ['ox', ['Ox harness']],
    ['wide ox', ['Ox harness']],
    ['collar 5 mm', ['Collar 50 mm']],
    ['50%', ['Sale 50% collar']],
    ['snake_case', ['snake_case tag']],
    ['e__c', []],
    ['arnes', ['Ox harness']],
    ['short,', ['Q lead']],
    ['ROPE', ['Blue\u00a0rope', 'Tug toy']],
    ['blue\u00a0rope', ['Blue\u00a0rope']],
  ])('%j', async (q, names) => {
    expect(await adminSearch(q)).toEqual({ names, total: names.length });
    expect(await search({ search: q })).toEqual({ names, total: names.length });
  });
});
