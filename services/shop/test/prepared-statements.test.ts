// The shop's statements are prepared once per connection under a name derived from their text,
// except those whose best plan depends on their values (the product list with price bounds or a
// search), which stay unnamed and are planned per call. Answers do not change either way.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { recordStatements } from './support/statements.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;
let statements: ReturnType<typeof recordStatements>;

beforeAll(async () => {
  t = await createTestApp({ apiKeyCacheMs: 10 * 60_000 });
  ids = await seedCatalogue(t.app);
  statements = recordStatements(new URL(t.config.databaseUrl).pathname.slice(1));
  await t.request({ method: 'GET', url: '/categories' });
});
afterAll(async () => {
  statements.restore();
  await t.close();
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
  it('prepares the browse list, the detail and the reviews page under the same name each call', async () => {
    const id = ids.productId('Blue lead');
    for (const url of ['/products', `/products/${id}`, `/products/${id}/reviews`]) {
      const first = await namesOf(url);
      const again = await namesOf(url);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(/^SELECT_[\w-]{27}$/);
      expect(again).toEqual(first);
    }
    expect(new Set([await namesOf('/products'), await namesOf('/products?sort=name')]).size).toBe(
      2,
    );
  });

  it('leaves the list with price bounds or a search unnamed, planned for its values', async () => {
    for (const url of [
      '/products?min_price=10',
      '/products?search=lead',
      '/products?max_price=1',
    ]) {
      expect(await namesOf(url)).toEqual(['']);
    }
  });

  it('answers a wide price range right after many calls with a narrow one', async () => {
    for (let i = 0; i < 8; i += 1) {
      const narrow = await t.request({ method: 'GET', url: '/products?min_price=9&max_price=10' });
      expect(narrow.json().pagination.total).toBe(1);
    }
    const wide = await t.request({ method: 'GET', url: '/products?min_price=0&max_price=1000' });
    expect(wide.json().pagination.total).toBe(4);
  });
});
