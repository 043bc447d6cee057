// The search statement keeps its values from the planner (products/repository.ts, searchPage), so
// PostgreSQL keeps one generic plan per statement shape on a connection. On 10,000 products, where
// PostgreSQL's choice between its plans shows, that plan must answer every kind of search as a
// plain substring filter does — common and rare terms, terms of one and two characters, price
// bounds wide and narrow, a category, more terms than are prepared — for every sort, page and
// total, paging by each of its ways (walking the sort's index against the matches or testing the
// walked rows, or sorting the matches); it must be the plan in use after five calls, and read the
// postings, not every product holding the terms.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductSort } from '@dogshop/contracts/shop';
import pg from 'pg';
import { sqlReads, type SqlReads } from '../src/db/sql-reads.js';
import { findActiveProducts, type ProductFilter } from '../src/modules/products/repository.js';
import { createTestApp, type TestApp } from './support/app.js';

const ORDER: Record<ProductSort, string> = {
  newest: 'created_at DESC, id DESC',
  price_asc: 'price ASC, id ASC',
  price_desc: 'price DESC, id DESC',
  name: 'name ASC, id ASC',
};

let t: TestApp;
let sql: pg.Pool;
let categories: { parent: number; child: number };

beforeAll(async () => {
  t = await createTestApp();
  sql = new pg.Pool({ connectionString: t.config.databaseUrl, max: 2 });
  const inserted = await sql.query<{ id: number }>(`
    INSERT INTO categories (name, description, sort_order)
    VALUES ('Gear', 'Gear', 0) RETURNING id`);
  const parent = inserted.rows[0]!.id;
  const child = await sql.query<{ id: number }>(
    `INSERT INTO categories (name, description, parent_id, sort_order)
     VALUES ('Leads', 'Leads', $1, 1) RETURNING id`,
    [parent],
  );
  categories = { parent, child: child.rows[0]!.id };
  // Three materials and four nouns in names and descriptions, a number of its own per product
  // (rare terms), punctuation after some words, prices over 0.25–399.75, a tenth inactive.
  await sql.query(
    `INSERT INTO products (name, description, price, category_id, stock, active, updated_at)
     SELECT initcap((ARRAY['leather', 'nylon', 'wool'])[1 + i % 3]) || ' '
              || (ARRAY['collar', 'lead', 'vest', 'bowl'])[1 + i % 4] || ' No. ' || i,
            'Pairs well with our ' || (ARRAY['wool', 'leather', 'nylon'])[1 + i % 7 % 3] || ' '
              || (ARRAY['lead.', 'collar,', 'bowl', 'vest'])[1 + i % 5 % 4] || ' Sturdy.',
            (i % 400) + (i % 4) * 0.25,
            CASE WHEN i % 3 = 0 THEN $2::int ELSE $1::int END,
            1, i % 10 <> 0, now() - i * interval '1 minute'
       FROM generate_series(1, 10000) i`,
    [categories.parent, categories.child],
  );
  await sql.query('ANALYZE products');
});
afterAll(async () => {
  await sql.end();
  await t.close();
});

type Search = Omit<ProductFilter, 'categoryId'> & { category?: 'parent' | 'child' };

/** The ids and total a plain substring filter gives (strpos: no LIKE, no tokens). */
async function expected(search: Search, sort: ProductSort, skip: number, take: number) {
  const where = ['active'];
  const params: unknown[] = [];
  for (const term of search.terms) {
    where.push(`strpos(search_text, lower($${params.push(term)})) > 0`);
  }
  if (search.minPrice !== undefined) where.push(`price >= $${params.push(search.minPrice)}`);
  if (search.maxPrice !== undefined) where.push(`price <= $${params.push(search.maxPrice)}`);
  if (search.category === 'child') {
    where.push(`category_id = $${params.push(categories.child)}`);
  }
  const filter = where.join(' AND ');
  const total = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM products WHERE ${filter}`,
    params,
  );
  const page = await sql.query<{ id: number }>(
    `SELECT id FROM products WHERE ${filter} ORDER BY ${ORDER[sort]}
      LIMIT ${take} OFFSET ${skip}`,
    params,
  );
  return { total: total.rows[0]!.n, ids: page.rows.map((r) => r.id) };
}

const SEARCHES: Search[] = [
  { terms: ['leather', 'collar'], minPrice: 20, maxPrice: 250 },
  { terms: ['WOOL', 'bowl'], minPrice: 10, maxPrice: 11 },
  { terms: ['nylon', 'lead'], minPrice: 0.25, maxPrice: 399.75 },
  { terms: ['1234'], minPrice: 30 },
  { terms: ['no.', 'vest'], maxPrice: 99.5 },
  { terms: ['lea', 'st'], minPrice: 100, maxPrice: 300 },
  { terms: ['x'], category: 'child' },
  { terms: ['collar,', 'wool'], category: 'parent', maxPrice: 200 },
  { terms: ['sturdy.', 'leather', 'lead'] },
  { terms: ['zebra'], minPrice: 1 },
  { terms: ['leather'], minPrice: 13, maxPrice: 14.5 },
  { terms: ['le', 'collar'], minPrice: 100, maxPrice: 102 },
  { terms: ['x', 'no.'], category: 'child', maxPrice: 3 },
  { terms: ['wool', 'ar', 'no.', 'sturdy', 'l'], minPrice: 5, maxPrice: 300 },
  { terms: ['nylon', 'o', 'vest', 'pairs'] },
  // Very many matches of a short term only, and within a category: the walk tests the rows.
  { terms: ['o'] },
  { terms: ['pairs', 'lead'], category: 'child' },
];

describe('the search statement on 10,000 products', () => {
  it('answers every kind of search as a plain substring filter does, for every sort and page, in the generic plan', async () => {
    const generic = new pg.Pool({
      connectionString: t.config.databaseUrl,
      max: 1,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    try {
      await answersEverySearch(sqlReads(generic));
    } finally {
      await generic.end();
    }
  });

  it('keeps one plan on a connection: PostgreSQL switches to the generic plan, and it answers every search', async () => {
    // One connection, so that every call meets the same prepared statement; common and rare
    // terms, wide and narrow ranges alternate so that the reused plan reads both ways.
    const pool = new pg.Pool({ connectionString: t.config.databaseUrl, max: 1 });
    try {
      const reads = sqlReads(pool);
      const searches: Search[] = [];
      for (let i = 0; i < 4; i += 1) {
        searches.push(
          { terms: ['leather', 'collar'], minPrice: 13, maxPrice: 14 },
          { terms: ['nylon', `${4321 + i}`], minPrice: 0.25, maxPrice: 399.75 },
        );
      }
      for (const search of searches) {
        const { total, rows } = await findActiveProducts(reads, search, {
          sort: 'newest',
          skip: 0,
          take: 20,
        });
        expect({ search, total, ids: rows.map((r) => r.id) }).toEqual({
          search,
          ...(await expected(search, 'newest', 0, 20)),
        });
      }
      const { rows } = await pool.query<{ generic_plans: string }>(
        `SELECT generic_plans FROM pg_prepared_statements WHERE statement LIKE '%term\\_1%'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(searches.length - 5);
    } finally {
      await pool.end();
    }
  });

  it("reads the postings of the range's units, tests only the rows of the units a bound cuts, and walks the sort's index only for many matches, testing the walked rows' text for very many", async () => {
    const client = new pg.Client({
      connectionString: t.config.databaseUrl,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    await client.connect();
    try {
      /** The scans that ran (not "never executed"), the walks of the sort's index, the total. */
      const planOf = async (search: Search) => {
        let statement: { text: string; values: unknown[] } | undefined;
        const capture: SqlReads = {
          async rows<T>(query: { text: string; values: unknown[] }) {
            statement = { text: query.text, values: query.values.map(String) };
            return [] as T[];
          },
        };
        await findActiveProducts(capture, search, { sort: 'newest', skip: 0, take: 20 });
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${statement!.text}`,
          statement!.values,
        );
        // The plan's nodes, each its line and the lines below it up to the next node.
        const nodes: { head: string; details: string[] }[] = [];
        for (const { 'QUERY PLAN': line } of rows) {
          if (nodes.length === 0 || line.includes('->')) nodes.push({ head: line, details: [] });
          else nodes.at(-1)!.details.push(line);
        }
        const ran = nodes.filter((node) => !/never executed/.test(node.head));
        const scans = ran
          .map((node) => node.head)
          .filter((line) => /Scan using|Scan on/.test(line))
          .join('\n');
        // The walks of the sort's index that ran (not the lookups by id the sort of the matches
        // may make through it): the rows they kept, what they tested, the rows they dropped.
        const walks = ran
          .filter(
            (node) =>
              /Scan using products_(active_)?created_at_id_idx/.test(node.head) &&
              !node.details.some((line) => /Index Cond: \(id =/.test(line)),
          )
          .map((node) => ({
            kept: Number(node.head.match(/actual rows=([\d.]+)/)?.[1]),
            filter: node.details.find((line) => /Filter:/.test(line)),
            // EXPLAIN leaves the line out when no row was dropped.
            dropped: Number(
              node.details
                .find((line) => /Rows Removed by Filter/.test(line))
                ?.match(/(\d+)/)?.[1] ?? 0,
            ),
          }));
        return {
          scans,
          walks,
          total: (await expected(search, 'newest', 0, 20)).total,
        };
      };
      const active = 9_000;
      const many = await planOf({ terms: ['leather', 'collar'], minPrice: 24, maxPrice: 100.5 });
      // Between sqrt(20 × active ÷ WALK_COST_RATIO) and sqrt(20 × active × ROW_TEST_RATIO).
      expect(many.total).toBeGreaterThan(200);
      expect(many.total).toBeLessThan(550);
      expect(many.scans).toMatch(/product_search_postings_pkey .*actual rows=[1-9]/);
      expect(many.scans).not.toMatch(/products_search_tokens_idx/);
      // Only the ids of units 24 and 100 are looked up on their rows.
      const tested = /Index Scan using products_pkey on products p \(actual rows=([\d.]+) /;
      const testedRows = Number(many.scans.match(tested)?.[1]);
      expect(testedRows).toBeGreaterThan(0);
      expect(testedRows).toBeLessThan(many.total / 20);
      // Many matches: one walk of the sort's index, keeping the ids in the hashed set.
      expect(many.walks).toHaveLength(1);
      expect(many.walks[0]!.kept).toBe(20);
      expect(many.walks[0]!.filter).toMatch(/hashed SubPlan/);

      // Very many: the walk keeps the rows whose text holds the terms, reading about
      // 20 × active ÷ total of them, and no hashed set of the matches is built.
      const wide = await planOf({ terms: ['leather', 'sturdy.'], minPrice: 11.5, maxPrice: 301.5 });
      expect(wide.total).toBeGreaterThan(2_000);
      expect(wide.scans).toMatch(/product_search_postings_pkey .*actual rows=[1-9]/);
      expect(wide.walks).toHaveLength(1);
      expect(wide.walks[0]!.kept).toBe(20);
      expect(wide.walks[0]!.filter).not.toMatch(/SubPlan/);
      expect(wide.walks[0]!.filter).toMatch(/search_text ~~ .*search_text ~~/);
      expect(wide.walks[0]!.dropped).toBeLessThan((4 * 20 * active) / wide.total);

      const narrow = await planOf({ terms: ['leather'], minPrice: 13, maxPrice: 14 });
      expect(narrow.total).toBeGreaterThan(0);
      expect(narrow.total).toBeLessThan(100);
      expect(narrow.scans).toMatch(/product_search_postings_pkey .*actual rows=[1-9]/);
      // Few: their rows read and sorted, the sort's index never walked.
      expect(narrow.walks).toHaveLength(0);
    } finally {
      await client.end();
    }
  });
});

async function answersEverySearch(reads: SqlReads) {
  for (const search of SEARCHES) {
    for (const sort of Object.keys(ORDER) as ProductSort[]) {
      for (const [skip, take] of [
        [0, 20],
        [40, 7],
      ] as const) {
        const { category, ...filter } = search;
        const categoryId = category === undefined ? undefined : categories[category];
        const { total, rows } = await findActiveProducts(
          reads,
          { ...filter, categoryId },
          { sort, skip, take },
        );
        expect({ search, sort, skip, total, ids: rows.map((r) => r.id) }).toEqual({
          search,
          sort,
          skip,
          ...(await expected(search, sort, skip, take)),
        });
      }
    }
  }
}
