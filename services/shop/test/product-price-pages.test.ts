// A price range without a category or search reads its page one of two ways, chosen by the
// executor from the exact total (products/repository.ts, pricedPage): it walks the sort's index
// when many products match, or reads the range from the price index and sorts it when few do.
// Either way the page must be the rows a plain filter, ORDER BY and LIMIT give, for every sort,
// page and kind of bound, and the statement keeps one plan (named, so PostgreSQL reuses it after
// five calls): narrow and wide ranges alternate here so that a reused plan meets both.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductSort } from '@dogshop/contracts/shop';
import pg from 'pg';
import { sqlReads } from '../src/db/sql-reads.js';
import { importCatalogue, type Catalogue } from '../src/modules/catalogue-import/service.js';
import { findActiveProducts } from '../src/modules/products/repository.js';
import { createTestApp, type TestApp } from './support/app.js';

const PRODUCTS = 240;
const SORTS: Record<ProductSort, string> = {
  newest: 'created_at DESC, id DESC',
  price_asc: 'price ASC, id ASC',
  price_desc: 'price DESC, id DESC',
  name: 'name ASC, id ASC',
};

function catalogue(): Catalogue {
  return {
    categories: [{ name: 'Leads', description: 'Leads', parent: null, sort_order: 0 }],
    products: Array.from({ length: PRODUCTS }, (_, i) => ({
      // Names out of creation order; prices spread over 0.50–120.49, several sharing a price.
      name: `Lead ${String((i * 37) % PRODUCTS).padStart(3, '0')}`,
      description: 'A lead',
      price: 0.5 + ((i * 53) % 120) + (i % 3) * 0.25,
      category: 'Leads',
      stock: 1,
      active: i % 9 !== 0,
    })),
  };
}

let t: TestApp;
let sql: pg.Pool;
let active: number;

beforeAll(async () => {
  t = await createTestApp();
  await importCatalogue(t.app.db, catalogue());
  sql = new pg.Pool({ connectionString: t.config.databaseUrl, max: 2 });
  active = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM products WHERE active'))
    .rows[0]!.n;
});
afterAll(async () => {
  await sql.end();
  await t.close();
});

type Bounds = { min?: number; max?: number };

/** The ids and total a plain filter gives for the bounds, sort and page. */
async function expected(bounds: Bounds, sort: ProductSort, limit: number, page: number) {
  const where = ['active'];
  const params: unknown[] = [];
  if (bounds.min !== undefined) where.push(`price >= $${params.push(bounds.min)}`);
  if (bounds.max !== undefined) where.push(`price <= $${params.push(bounds.max)}`);
  const filter = where.join(' AND ');
  const [ids, total] = await Promise.all([
    sql.query<{ id: number }>(
      `SELECT id FROM products WHERE ${filter} ORDER BY ${SORTS[sort]}
        LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
      params,
    ),
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE ${filter}`, params),
  ]);
  return { ids: ids.rows.map((r) => r.id), total: total.rows[0]!.n };
}

async function listed(bounds: Bounds, sort: ProductSort, limit: number, page: number) {
  const query: Record<string, string> = { sort, limit: String(limit), page: String(page) };
  if (bounds.min !== undefined) query.min_price = String(bounds.min);
  if (bounds.max !== undefined) query.max_price = String(bounds.max);
  const res = await t.request({ method: 'GET', url: '/products', query });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ data: Array<{ id: number }>; pagination: { total: number } }>();
  return { ids: body.data.map((p) => p.id), total: body.pagination.total };
}

describe('a price range without a category', () => {
  it('pages exactly like a plain filter, both when the page walks the sort and when it sorts the range', async () => {
    // Narrow (a few matches: sorted) and wide (most: walked) ranges in turn, open ends too.
    const ranges: Bounds[] = [
      { min: 10, max: 11 },
      { min: 1, max: 110 },
      { min: 40.5, max: 41.75 },
      { min: 20 },
      { max: 3 },
      { max: 100 },
      { min: 119 },
      { min: 0, max: 1_000_000 },
      { min: 30, max: 70 },
      { min: 60.5, max: 60.5 },
      { min: 50, max: 65 },
      { min: 200 },
    ];
    const ways = new Set<string>();
    for (const bounds of ranges) {
      for (const sort of Object.keys(SORTS) as ProductSort[]) {
        for (const [limit, page] of [
          [20, 1],
          [7, 3],
          [50, 2],
        ] as const) {
          const want = await expected(bounds, sort, limit, page);
          expect({
            bounds,
            sort,
            limit,
            page,
            ...(await listed(bounds, sort, limit, page)),
          }).toEqual({
            bounds,
            sort,
            limit,
            page,
            ...want,
          });
          // The way pricedPage takes: walk when total² ≥ (skip + take) × active products.
          ways.add(want.total ** 2 >= ((page - 1) * limit + limit) * active ? 'walk' : 'sort');
        }
      }
    }
    expect([...ways].sort()).toEqual(['sort', 'walk']);
  });

  it('follows a price change at once, in the total and on the page', async () => {
    const bounds = { min: 500, max: 600 };
    expect(await listed(bounds, 'newest', 20, 1)).toEqual({ ids: [], total: 0 });
    const { rows } = await sql.query<{ id: number }>(
      'UPDATE products SET price = 555 WHERE id = (SELECT min(id) FROM products WHERE active) RETURNING id',
    );
    expect(await listed(bounds, 'newest', 20, 1)).toEqual({ ids: [rows[0]!.id], total: 1 });
    expect(await listed(bounds, 'name', 20, 1)).toEqual(await expected(bounds, 'name', 20, 1));
  });
});

describe('a price range on 10,000 more products', () => {
  // Where PostgreSQL's choice between its plans shows: with a handful of rows every plan is cheap.
  beforeAll(async () => {
    await sql.query(`
      INSERT INTO categories (name, description, sort_order)
      VALUES ('Bulk', 'Bulk', 9)`);
    await sql.query(`
      INSERT INTO products (name, description, price, category_id, stock, active, updated_at)
      SELECT 'Bulk ' || i, 'A bulk product', (i % 400) + (i % 4) * 0.25,
             (SELECT id FROM categories WHERE name = 'Bulk'), 1, i % 10 <> 0, now()
        FROM generate_series(1, 10000) i`);
    await sql.query('ANALYZE products');
  });

  it('keeps one plan on a connection: PostgreSQL switches to the generic plan, and it answers every range', async () => {
    // One connection, so that every call meets the same prepared statement.
    const pool = new pg.Pool({ connectionString: t.config.databaseUrl, max: 1 });
    try {
      const reads = sqlReads(pool);
      const ranges: Bounds[] = [];
      for (let i = 0; i < 4; i += 1) ranges.push({ min: 10, max: 11 }, { min: 30, max: 230 });
      for (const bounds of ranges) {
        const { total, rows } = await findActiveProducts(
          reads,
          { terms: [], minPrice: bounds.min, maxPrice: bounds.max },
          { sort: 'newest', skip: 0, take: 20 },
        );
        expect({ bounds, total, ids: rows.map((r) => r.id) }).toEqual({
          bounds,
          ...(await expected(bounds, 'newest', 20, 1)),
        });
      }
      const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%walk_limit%'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(ranges.length - 5);
    } finally {
      await pool.end();
    }
  });
});
