// The catalogue's hot reads go to PostgreSQL through `pg` (db/sql-reads.ts), no longer through
// Prisma's `$queryRaw`. Both paths run the same statements; this checks that they also give the
// same answers: a few hundred random list, search, price, category, detail and reviews requests
// over a generated catalogue, each answered through the service functions once by each path,
// must be deeply equal (same values, same types, same errors).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductListQuery, ReviewListQuery } from '@dogshop/contracts/shop';
import pg from 'pg';
import type { SqlReads } from '../src/db/sql-reads.js';
import { importCatalogue, type Catalogue } from '../src/modules/catalogue-import/service.js';
import { getProduct, listProducts } from '../src/modules/products/service.js';
import { listReviews } from '../src/modules/reviews/service.js';
import { createTestApp, type TestApp } from './support/app.js';

const WORDS = ['leather', 'steel', 'red', 'blue', 'lead', 'collar', 'bowl', 'harness', 'tracking'];
const REQUESTS = 360;

/** A small seeded generator (mulberry32), so that a failure names a request that can be rerun. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}

function generatedCatalogue(): Catalogue {
  const r = random(31);
  const categories: Catalogue['categories'] = Array.from({ length: 12 }, (_, i) => ({
    name: `Category ${i}`,
    description: `Category number ${i}`,
    parent: i < 3 ? null : `Category ${r.int(0, i - 1)}`,
    sort_order: i,
  }));
  const products: Catalogue['products'] = Array.from({ length: 300 }, (_, i) => {
    const words = [r.pick(WORDS), r.pick(WORDS), r.pick(WORDS)];
    return {
      name: `${words[0]} ${words[1]} ${i}`,
      // Some descriptions with LIKE's wildcards, which a search takes literally.
      description: `${words.join(' ')}${i % 17 === 0 ? ' 100% cotton_mix' : ''}`,
      // Whole and cut units of price, some equal.
      price: r.next() < 0.2 ? r.int(1, 60) : r.int(100, 9_000) / 100,
      category: `Category ${r.int(0, 11)}`,
      stock: r.int(0, 50),
      active: r.next() > 0.1,
    };
  });
  return { categories, products };
}

let t: TestApp;
let sql: pg.Pool;
let productIds: number[];
let categoryIds: number[];

beforeAll(async () => {
  t = await createTestApp();
  await importCatalogue(t.app.db, generatedCatalogue());
  sql = new pg.Pool({ connectionString: t.config.databaseUrl, max: 2 });
  // Customers and reviews in SQL (reviews have no import path): several per product, some
  // hidden, some in the same millisecond (ties broken by id), every rating.
  await sql.query(`
    INSERT INTO customers (email, password_hash, first_name, last_name)
    SELECT 'reader-' || i || '@example.com', 'unused', 'First' || i, 'Last' || i
      FROM generate_series(1, 40) i`);
  await sql.query(`
    INSERT INTO reviews (product_id, customer_id, rating, title, comment, hidden, created_at)
    SELECT p.id, c.id, 1 + (p.id * 7 + c.id) % 5, 'Title ' || c.id, 'Comment on ' || p.name,
           (p.id + c.id) % 11 = 0,
           timestamptz '2026-01-01' + ((p.id * 13 + c.id * 7) % 50) * interval '1 minute'
      FROM products p JOIN customers c ON (p.id + c.id) % 3 = 0 AND c.id % 40 < (p.id % 19)`);
  productIds = (await sql.query<{ id: number }>('SELECT id FROM products ORDER BY id')).rows.map(
    (row) => row.id,
  );
  categoryIds = (await sql.query<{ id: number }>('SELECT id FROM categories ORDER BY id')).rows.map(
    (row) => row.id,
  );
}, 60_000);
afterAll(async () => {
  await sql.end();
  await t.close();
});

/** The former path: the same statements through Prisma's `$queryRaw`. */
const prismaReads = (): SqlReads => ({
  rows: <T>(query: Parameters<SqlReads['rows']>[0]) => t.app.db.$queryRaw<T[]>(query),
});

/** An answer or the error it gave (status and message), so refusals are compared too. */
async function outcome(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    return { answer: await fn() };
  } catch (error) {
    const { statusCode, message } = error as { statusCode?: number; message: string };
    return { statusCode, message };
  }
}

type Read = { what: string; run: (reads: SqlReads) => Promise<unknown> };

function randomRead(r: ReturnType<typeof random>): Read {
  const kind = r.int(0, 5);
  const id = r.next() < 0.05 ? 999_999 : r.pick(productIds);
  if (kind === 4) return { what: `detail ${id}`, run: (reads) => getProduct(reads, id) };
  if (kind === 5) {
    const query: ReviewListQuery = {
      page: r.int(1, 3),
      limit: r.pick([5, 10, 20]),
      sort: r.pick(['newest', 'oldest', 'rating'] as const),
      ...(r.next() < 0.4 && { rating: r.int(1, 5) }),
    };
    return {
      what: `reviews ${id} ${JSON.stringify(query)}`,
      run: (reads) => listReviews(reads, id, query),
    };
  }
  const query: ProductListQuery = {
    page: r.next() < 0.8 ? 1 : r.int(2, 6),
    limit: r.pick([1, 5, 20, 50]),
    sort: r.pick(['newest', 'price_asc', 'price_desc', 'name'] as const),
  };
  // 0: browse, 1: price range, 2: search (with or without a price range), 3: category (±price).
  if (kind === 1 || (kind >= 2 && r.next() < 0.5)) {
    const min = r.int(0, 60);
    if (r.next() < 0.8) query.min_price = r.next() < 0.5 ? min : min + 0.5;
    if (r.next() < 0.8) query.max_price = min + r.int(0, 40) + (r.next() < 0.5 ? 0 : 0.99);
  }
  if (kind === 2) {
    const terms = [r.pick(WORDS), r.pick([...WORDS, 'ea', '%', '_mix', 'STEEL'])];
    query.search = terms.slice(0, r.int(1, 2)).join(' ');
  }
  if (kind === 3) query.category = r.pick(categoryIds);
  return { what: `list ${JSON.stringify(query)}`, run: (reads) => listProducts(reads, query) };
}

describe('the catalogue reads through pg', () => {
  it(`answer ${REQUESTS} random list, search, price, category, detail and reviews requests as Prisma did`, async () => {
    const r = random(2026);
    const kinds = new Map<string, number>();
    let found = 0;
    for (let i = 0; i < REQUESTS; i += 1) {
      const read = randomRead(r);
      const viaPg = await outcome(() => read.run(t.app.reads));
      const viaPrisma = await outcome(() => read.run(prismaReads()));
      expect({ read: read.what, outcome: viaPg }).toStrictEqual({
        read: read.what,
        outcome: viaPrisma,
      });
      const kind = read.what.split(' ')[0]!;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if ('answer' in (viaPg as object)) found += 1;
    }
    // The requests were not all refusals, and every kind came up.
    expect(found).toBeGreaterThan(REQUESTS * 0.8);
    expect([...kinds.keys()].sort()).toEqual(['detail', 'list', 'reviews']);
  }, 30_000);

  it('answers with non-empty pages and reviews (the data is not vacuous)', async () => {
    const list = await listProducts(t.app.reads, { page: 1, limit: 20, sort: 'newest' });
    expect(list.products).toHaveLength(20);
    expect(list.pagination.total).toBeGreaterThan(200);
    const searched = await listProducts(t.app.reads, {
      page: 1,
      limit: 50,
      sort: 'newest',
      search: '100%',
    });
    expect(searched.products.length).toBeGreaterThan(0);
    expect(searched.products.every((p) => p.description.includes('100%'))).toBe(true);
    const { rows } = await sql.query<{ id: number; n: number }>(
      `SELECT p.id, count(*)::int AS n FROM products p JOIN reviews r ON r.product_id = p.id
        WHERE p.active AND NOT r.hidden GROUP BY p.id ORDER BY n DESC, p.id LIMIT 1`,
    );
    const detail = await getProduct(t.app.reads, rows[0]!.id);
    expect(detail.reviews).toHaveLength(Math.min(10, rows[0]!.n));
    const page = await listReviews(t.app.reads, rows[0]!.id, { page: 1, limit: 5, sort: 'rating' });
    expect(page.summary.total_reviews).toBe(rows[0]!.n);
  });
});
