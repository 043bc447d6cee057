// The product list's `pagination.total`: browse totals (no filter, a category with its
// descendants) come from `category_product_counts`, price-bounded totals from
// `price_product_counts` (and a count of the units the bounds cut), both kept by triggers on
// `products`; the other filtered totals (search, price bounds in a category) are counts of the
// matching rows. After every kind of change, each
// total must equal a fresh count of the rows and the number of products the list actually shows.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { importCatalogue, type Catalogue } from '../src/modules/catalogue-import/service.js';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue, TEST_CATALOGUE } from './support/catalogue.js';

let t: TestApp;
let sql: pg.Pool;

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogue(t.app);
  sql = new pg.Pool({ connectionString: t.config.databaseUrl, max: 20 });
});
afterAll(async () => {
  await sql.end();
  await t.close();
});

const categoryId = async (name: string) =>
  (await t.app.db.category.findUniqueOrThrow({ where: { name }, select: { id: true } })).id;
const productId = async (name: string) =>
  (await t.app.db.product.findFirstOrThrow({ where: { name }, select: { id: true } })).id;

async function list(query: Record<string, string | number>) {
  const res = await t.request({ method: 'GET', url: '/products', query: stringify(query) });
  expect(res.statusCode).toBe(200);
  return res.json<{
    data: Array<{ id: number }>;
    pagination: { total: number; pages: number };
  }>();
}

const stringify = (query: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));

/** The list's total, and every id it shows when paged through to the end (50 a page). */
async function shown(query: Record<string, string | number> = {}) {
  const first = await list({ ...query, limit: 50 });
  const ids = first.data.map((p) => p.id);
  for (let page = 2; page <= first.pagination.pages; page += 1) {
    const next = await list({ ...query, limit: 50, page });
    expect(next.pagination.total).toBe(first.pagination.total);
    ids.push(...next.data.map((p) => p.id));
  }
  return { total: first.pagination.total, ids };
}

/** A fresh count of the rows the list shows: active products, in the category's subtree if given. */
async function freshCount(filter: { category?: number; where?: string; params?: unknown[] } = {}) {
  const params = [...(filter.params ?? [])];
  let inTree = '';
  if (filter.category !== undefined) {
    params.push(filter.category);
    inTree = `AND category_id IN (
      WITH RECURSIVE tree AS (SELECT id FROM categories WHERE id = $${params.length}
                              UNION SELECT c.id FROM categories c JOIN tree ON c.parent_id = tree.id)
      SELECT id FROM tree)`;
  }
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM products WHERE active ${inTree} ${filter.where ?? ''}`,
    params,
  );
  return rows[0]!.n;
}

/**
 * Every category's and every unit of price's kept count equals a count of its active products (a
 * missing row is 0), and the search postings hold, per token and unit, exactly the active
 * products whose text has the token (migration *_product_search_postings), kept by the same
 * deferred step.
 */
async function expectCountsKept() {
  const { rows: postings } = await sql.query<{
    side: string;
    token: string;
    unit: number;
    id: number;
  }>(
    `WITH kept AS (SELECT token, price_unit, unnest(product_ids) AS id FROM product_search_postings),
          actual AS (SELECT DISTINCT t.token, floor(p.price)::int AS price_unit, p.id
                       FROM products p, unnest(search_tokens(p.search_text)) AS t (token)
                      WHERE p.active)
     (SELECT 'kept only' AS side, * FROM (TABLE kept EXCEPT ALL TABLE actual) k)
     UNION ALL
     (SELECT 'missing' AS side, * FROM (TABLE actual EXCEPT ALL TABLE kept) a)`,
  );
  expect(postings).toEqual([]);
  const { rows: units } = await sql.query<{ unit: number; kept: number; actual: number }>(
    `SELECT k.unit, coalesce(u.active_products, 0) AS kept,
            (SELECT count(*)::int FROM products p
              WHERE p.active AND floor(p.price) = k.unit) AS actual
       FROM (SELECT floor(price)::int AS unit FROM products
             UNION SELECT price_unit FROM price_product_counts) k
       LEFT JOIN price_product_counts u ON u.price_unit = k.unit
      ORDER BY k.unit`,
  );
  expect(units.filter((r) => r.kept !== r.actual)).toEqual([]);
  const { rows } = await sql.query<{ id: number; kept: number; actual: number }>(
    `SELECT k.id, coalesce(c.active_products, 0) AS kept,
            (SELECT count(*)::int FROM products p WHERE p.category_id = k.id AND p.active) AS actual
       FROM (SELECT id FROM categories UNION SELECT category_id FROM category_product_counts) k
       LEFT JOIN category_product_counts c ON c.category_id = k.id
      ORDER BY k.id`,
  );
  expect(rows.filter((r) => r.kept !== r.actual)).toEqual([]);
}

/** The unfiltered list and every category filter agree with fresh counts and with what is shown. */
async function expectBrowseTotalsExact() {
  await expectCountsKept();
  const all = await shown();
  expect(all.total).toBe(await freshCount());
  expect(all.ids).toHaveLength(all.total);
  expect(new Set(all.ids).size).toBe(all.total);
  for (const { id } of await t.app.db.category.findMany({ select: { id: true } })) {
    const inCategory = await shown({ category: id });
    expect({ category: id, total: inCategory.total }).toEqual({
      category: id,
      total: await freshCount({ category: id }),
    });
    expect(inCategory.ids).toHaveLength(inCategory.total);
  }
}

describe('browse totals (kept counts)', () => {
  it('match the rows after the catalogue import', async () => {
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(4);
    expect((await list({ category: await categoryId('Dogs') })).pagination.total).toBe(3);
  });

  it('come from the kept counts, not from counting products', async () => {
    const dogs = await categoryId('Dogs');
    const before = (await list({})).pagination.total;
    await sql.query(
      'UPDATE category_product_counts SET active_products = active_products + 1000 WHERE category_id = $1',
      [dogs],
    );
    try {
      expect((await list({})).pagination.total).toBe(before + 1000);
      expect((await list({ category: dogs })).pagination.total).toBe(3 + 1000);
      // A price-bounded total reads the counts per unit of price, not these.
      expect((await list({ min_price: 0 })).pagination.total).toBe(before);
    } finally {
      await sql.query(
        'UPDATE category_product_counts SET active_products = active_products - 1000 WHERE category_id = $1',
        [dogs],
      );
    }
  });

  it('stay exact when a re-import adds, deactivates and re-activates products', async () => {
    const catalogue: Catalogue = {
      categories: [],
      products: [
        ...TEST_CATALOGUE.products.map((p) =>
          p.name === 'Blue lead' ? { ...p, active: false } : p,
        ),
        { name: 'Green lead', price: 12, category: 'Tracking leads', stock: 2 },
        { name: 'Lens cloth', price: 3.5, category: 'Optics', stock: 50, active: false },
      ],
    };
    await importCatalogue(t.app.db, catalogue);
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(4); // −Blue lead, +Green lead
    // The same file again changes nothing.
    await importCatalogue(t.app.db, catalogue);
    await expectBrowseTotalsExact();
    await importCatalogue(t.app.db, TEST_CATALOGUE);
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(5);
  });

  it('stay exact when a product is deactivated and activated again', async () => {
    const id = await productId('Red tracking lead');
    await t.app.db.product.update({ where: { id }, data: { active: false } });
    await expectBrowseTotalsExact();
    expect((await list({ category: await categoryId('Leads') })).pagination.total).toBe(2);
    await t.app.db.product.update({ where: { id }, data: { active: true } });
    await expectBrowseTotalsExact();
  });

  it('stay exact when a product moves to another category, active or not', async () => {
    const id = await productId('Dog bowl');
    const [dogs, optics] = [await categoryId('Dogs'), await categoryId('Optics')];
    const opticsBefore = (await list({ category: optics })).pagination.total;
    await t.app.db.product.update({ where: { id }, data: { categoryId: optics } });
    await expectBrowseTotalsExact();
    expect((await list({ category: optics })).pagination.total).toBe(opticsBefore + 1);
    // Moved and deactivated in one statement, then moved back and re-activated.
    await t.app.db.product.update({ where: { id }, data: { categoryId: dogs, active: false } });
    await expectBrowseTotalsExact();
    await t.app.db.product.update({ where: { id }, data: { active: true } });
    await expectBrowseTotalsExact();
    expect((await list({ category: optics })).pagination.total).toBe(opticsBefore);
  });

  it('stay exact when a category is deactivated (the list shows active products whatever their category)', async () => {
    // Today's list filters on the product's `active` only: a product of an inactive category is
    // still listed, and a category filter covers inactive descendants. The totals follow the list.
    const leads = await categoryId('Leads');
    const before = await shown();
    await t.app.db.category.update({ where: { id: leads }, data: { active: false } });
    await expectBrowseTotalsExact();
    expect((await shown()).ids.sort()).toEqual(before.ids.sort());
    await importCatalogue(t.app.db, {
      categories: [{ name: 'Leads', description: 'Leads', parent: 'Dogs', sort_order: 1 }],
      products: [],
    });
    await expectBrowseTotalsExact();
  });

  it('stay exact when a category moves under another parent, and back', async () => {
    const [dogs, optics, leads] = [
      await categoryId('Dogs'),
      await categoryId('Optics'),
      await categoryId('Leads'),
    ];
    const dogsBefore = (await list({ category: dogs })).pagination.total;
    const opticsBefore = (await list({ category: optics })).pagination.total;
    const leadsTotal = (await list({ category: leads })).pagination.total;
    // Through the import (parents are linked by name), then back through Prisma.
    await importCatalogue(t.app.db, {
      categories: [{ name: 'Leads', description: 'Leads', parent: 'Optics', sort_order: 1 }],
      products: [],
    });
    await expectBrowseTotalsExact();
    expect((await list({ category: dogs })).pagination.total).toBe(dogsBefore - leadsTotal);
    expect((await list({ category: optics })).pagination.total).toBe(opticsBefore + leadsTotal);
    await t.app.db.category.update({ where: { id: leads }, data: { parentId: dogs } });
    await expectBrowseTotalsExact();
    expect((await list({ category: dogs })).pagination.total).toBe(dogsBefore);
  });

  it('stay exact when products are deleted', async () => {
    const { id } = await t.app.db.product.create({
      data: { name: 'Short-lived', price: '1.00', categoryId: await categoryId('Optics') },
    });
    await expectBrowseTotalsExact();
    await t.app.db.product.delete({ where: { id } });
    await expectBrowseTotalsExact();
    // An inactive product's deletion moves nothing.
    const { id: inactive } = await t.app.db.product.create({
      data: {
        name: 'Never shown',
        price: '1.00',
        categoryId: await categoryId('Optics'),
        active: false,
      },
    });
    await t.app.db.product.delete({ where: { id: inactive } });
    await expectBrowseTotalsExact();
  });

  it("stay exact under an operator's bulk SQL: multi-row insert, update, delete, category id change", async () => {
    const optics = await categoryId('Optics');
    const dogs = await categoryId('Dogs');
    await sql.query(
      `INSERT INTO products (name, price, category_id, active, updated_at)
       SELECT 'Bulk ' || i, 5, CASE WHEN i % 2 = 0 THEN $1::int ELSE $2::int END, i % 3 <> 0, now()
         FROM generate_series(1, 300) AS i`,
      [optics, dogs],
    );
    await expectBrowseTotalsExact();
    await sql.query(`UPDATE products SET active = NOT active WHERE name LIKE 'Bulk %'`);
    await expectBrowseTotalsExact();
    await sql.query(
      `UPDATE products SET category_id = CASE WHEN category_id = $1 THEN $2::int ELSE $1::int END
        WHERE name LIKE 'Bulk %' AND id % 5 = 0`,
      [optics, dogs],
    );
    await expectBrowseTotalsExact();
    // A category's id changes (ON UPDATE CASCADE moves its products): the count moves with them.
    await sql.query('UPDATE categories SET id = id + 1000 WHERE id = $1', [optics]);
    await expectBrowseTotalsExact();
    await sql.query('UPDATE categories SET id = $1 WHERE id = $1 + 1000', [optics]);
    await sql.query(`DELETE FROM products WHERE name LIKE 'Bulk %'`);
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(5);
  });

  it('refuse a change that would take a kept count below zero (counts and rows disagree)', async () => {
    const id = await productId('Binoculars 8x42');
    const optics = await categoryId('Optics');
    const { rows } = await sql.query<{ n: number }>(
      'SELECT active_products AS n FROM category_product_counts WHERE category_id = $1',
      [optics],
    );
    await sql.query(
      'UPDATE category_product_counts SET active_products = 0 WHERE category_id = $1',
      [optics],
    );
    try {
      await expect(
        t.app.db.product.update({ where: { id }, data: { active: false } }),
      ).rejects.toThrow(/would go below zero/);
      expect((await t.app.db.product.findUniqueOrThrow({ where: { id } })).active).toBe(true);
    } finally {
      await sql.query(
        'UPDATE category_product_counts SET active_products = $2 WHERE category_id = $1',
        [optics, rows[0]!.n],
      );
    }
    await expectBrowseTotalsExact();
  });
});

describe('price-bounded totals (kept counts per unit of price)', () => {
  /** The list's total for the bounds equals a fresh count of the active products within them. */
  async function expectPriceTotalExact(min?: number, max?: number) {
    const query: Record<string, number> = {};
    const where: string[] = [];
    const params: number[] = [];
    if (min !== undefined) {
      query.min_price = min;
      params.push(min);
      where.push(`AND price >= $${params.length}`);
    }
    if (max !== undefined) {
      query.max_price = max;
      params.push(max);
      where.push(`AND price <= $${params.length}`);
    }
    const fresh = await freshCount({ where: where.join(' '), params });
    expect({ min, max, total: (await list(query)).pagination.total }).toEqual({
      min,
      max,
      total: fresh,
    });
    return fresh;
  }

  /** Bounds on, just beside, and across every price the catalogue has, and within one unit. */
  async function expectEveryBoundExact() {
    const { rows } = await sql.query<{ price: string }>(
      'SELECT DISTINCT price::text AS price FROM products ORDER BY 1',
    );
    const cents = (n: number) => Math.round(n * 100) / 100;
    let nonZero = 0;
    for (const p of rows.map((r) => Number(r.price))) {
      const unit = Math.floor(p);
      const near = [p, p - 0.01, p + 0.01, unit, unit + 0.5, unit + 1].map(cents);
      for (const low of near.filter((n) => n >= 0)) {
        if ((await expectPriceTotalExact(low)) > 0) nonZero += 1;
        await expectPriceTotalExact(undefined, low);
        for (const high of [p, p + 0.01, unit + 1, Math.ceil(p + 7.5), 1_000_000].map(cents)) {
          if (low <= high) await expectPriceTotalExact(low, high);
        }
      }
    }
    expect(nonZero).toBeGreaterThan(0);
  }

  it('are exact for bounds on, beside and across every price, and within one unit', async () => {
    await expectCountsKept();
    await expectEveryBoundExact();
  });

  it('come from the kept counts for the units wholly inside the bounds, and count the cut units', async () => {
    // The catalogue has 19.99 and 9.5: unit 19 lies wholly inside [10, 25.5], unit 9 only partly
    // inside [9.75, 25.5] (its 9.5 is out of bounds).
    const before = (await list({ min_price: 10, max_price: 25.5 })).pagination.total;
    const cutBefore = (await list({ min_price: 9.75, max_price: 25.5 })).pagination.total;
    await sql.query(
      'UPDATE price_product_counts SET active_products = active_products + 1000 WHERE price_unit IN (9, 19)',
    );
    try {
      expect((await list({ min_price: 10, max_price: 25.5 })).pagination.total).toBe(before + 1000);
      expect((await list({ min_price: 9.75, max_price: 25.5 })).pagination.total).toBe(
        cutBefore + 1000,
      );
      // Unit 9 is cut by the bound: its products are counted, not its kept count.
      expect((await list({ min_price: 9.75, max_price: 10 })).pagination.total).toBe(
        await freshCount({ where: 'AND price BETWEEN 9.75 AND 10', params: [] }),
      );
    } finally {
      await sql.query(
        'UPDATE price_product_counts SET active_products = active_products - 1000 WHERE price_unit IN (9, 19)',
      );
    }
  });

  it("refuse a change that would take a unit's count below zero (counts and rows disagree)", async () => {
    const id = await productId('Binoculars 8x42'); // 499.00, alone in unit 499
    await sql.query('UPDATE price_product_counts SET active_products = 0 WHERE price_unit = 499');
    try {
      await expect(
        t.app.db.product.update({ where: { id }, data: { price: 450 } }),
      ).rejects.toThrow(/price unit 499 would go below zero/);
      expect(Number((await t.app.db.product.findUniqueOrThrow({ where: { id } })).price)).toBe(499);
    } finally {
      await sql.query('UPDATE price_product_counts SET active_products = 1 WHERE price_unit = 499');
    }
    await expectCountsKept();
  });

  it('stay exact when prices change within a unit, across units, and with activation', async () => {
    const lead = await productId('Blue lead');
    const dogs = await categoryId('Dogs');
    const { price } = await t.app.db.product.findUniqueOrThrow({ where: { id: lead } });
    const steps: Array<{ price?: number; active?: boolean }> = [
      { price: 19.01 }, // within its unit
      { price: 20 }, // into the next, on its lower edge
      { price: 0.5 },
      { active: false },
      { price: 250.75 }, // an inactive product's price moves no count
      { active: true },
      { price: Number(price), active: true },
    ];
    for (const data of steps) {
      await t.app.db.product.update({ where: { id: lead }, data });
      await expectCountsKept();
      await expectPriceTotalExact(19, 20);
      await expectPriceTotalExact(0.5, 250.75);
    }
    expect((await t.app.db.product.findUniqueOrThrow({ where: { id: lead } })).price).toEqual(
      price,
    );
    // An operator's bulk SQL: every price in a category moved at once, then back.
    const prices = `SELECT id, price::text FROM products WHERE category_id = $1 ORDER BY id`;
    const before = (await sql.query(prices, [dogs])).rows;
    await sql.query('UPDATE products SET price = price * 3 + 0.5 WHERE category_id = $1', [dogs]);
    await expectCountsKept();
    await expectEveryBoundExact();
    await sql.query('UPDATE products SET price = (price - 0.5) / 3 WHERE category_id = $1', [dogs]);
    await expectCountsKept();
    expect((await sql.query(prices, [dogs])).rows).toEqual(before);
  });
});

describe('browse totals under concurrency', () => {
  it('stay exact after 20 parallel activations and deactivations in separate transactions', async () => {
    const categories = (await t.app.db.category.findMany({ select: { id: true } })).map(
      (c) => c.id,
    );
    await sql.query(
      `INSERT INTO products (name, price, category_id, active, updated_at)
       SELECT 'Flip ' || i, 7, ($1::int[])[1 + i % cardinality($1::int[])], i % 2 = 0, now()
         FROM generate_series(1, 20) AS i`,
      [categories],
    );
    const { rows } = await sql.query<{ id: number }>(
      `SELECT id FROM products WHERE name LIKE 'Flip %' ORDER BY id`,
    );
    const flip = async (id: number, round: number) => {
      const client = await sql.connect();
      try {
        await client.query('BEGIN');
        // Every other one also moves to another category in the same statement.
        await client.query(
          `UPDATE products
              SET active = NOT active,
                  category_id = CASE WHEN ($1::int + $3::int) % 2 = 0
                                     THEN ($2::int[])[1 + (category_id + $3::int) % cardinality($2::int[])]
                                     ELSE category_id END
            WHERE id = $1`,
          [id, categories, round],
        );
        await client.query('SELECT pg_sleep(0.005)');
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(rows.map((r) => flip(r.id, round)));
      await expectBrowseTotalsExact();
    }
    await sql.query(`DELETE FROM products WHERE name LIKE 'Flip %'`);
    await expectBrowseTotalsExact();
  });

  it('stay exact, without deadlocks, when transactions change the same categories in opposite orders', async () => {
    // Counts are applied when a transaction commits, in category order: two transactions that
    // each deactivate products of two categories, one X then Y, the other Y then X, both succeed.
    const [optics, dogs] = [await categoryId('Optics'), await categoryId('Dogs')];
    await sql.query(
      `INSERT INTO products (name, price, category_id, updated_at)
       SELECT 'Order ' || c || ' ' || i, 4, c, now()
         FROM unnest(ARRAY[$1::int, $2::int]) AS c, generate_series(1, 4) AS i`,
      [optics, dogs],
    );
    const inOrder = async (first: number, second: number) => {
      const client = await sql.connect();
      try {
        await client.query('BEGIN');
        for (const [category, i] of [
          [first, 1],
          [second, 1],
          [first, 2],
          [second, 2],
        ] as const) {
          await client.query(
            `UPDATE products SET active = false WHERE name = 'Order ' || $1::int || ' ' || $2::int`,
            [category, i + (category === first ? 0 : 2)],
          );
          await client.query('SELECT pg_sleep(0.02)');
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    await Promise.all([inOrder(optics, dogs), inOrder(dogs, optics)]);
    await expectBrowseTotalsExact();
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM products WHERE name LIKE 'Order %' AND NOT active`,
    );
    expect(rows[0]!.n).toBe(8);
    await sql.query(`DELETE FROM products WHERE name LIKE 'Order %'`);
    await expectBrowseTotalsExact();
  });

  it('stay exact when a transaction or a savepoint rolls back', async () => {
    const id = await productId('Dog bowl');
    const client = await sql.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE products SET active = false WHERE id = $1', [id]);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      await client.query('SAVEPOINT before');
      await client.query('UPDATE products SET active = false WHERE id = $1', [id]);
      await client.query('ROLLBACK TO SAVEPOINT before');
      await client.query(
        `INSERT INTO products (name, price, category_id, updated_at) VALUES ('Kept', 1, $1, now())`,
        [await categoryId('Optics')],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await expectBrowseTotalsExact();
    await sql.query(`DELETE FROM products WHERE name = 'Kept'`);
    await expectBrowseTotalsExact();
  });

  it('keep the search postings exact when one transaction changes a product and puts it back, adds and deletes one, and when a product is renumbered', async () => {
    const id = await productId('Dog bowl');
    const client = await sql.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `UPDATE products SET name = name || ' renamed', price = price + 7 WHERE id = $1`,
        [id],
      );
      await client.query(
        `UPDATE products SET name = replace(name, ' renamed', ''), price = price - 7 WHERE id = $1`,
        [id],
      );
      const added = await client.query<{ id: number }>(
        `INSERT INTO products (name, description, price, category_id, updated_at)
         VALUES ('Fleeting', 'gone soon', 3, $1, now()) RETURNING id`,
        [await categoryId('Optics')],
      );
      await client.query('DELETE FROM products WHERE id = $1', [added.rows[0]!.id]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await expectBrowseTotalsExact();
    expect((await list({ search: 'soon' })).pagination.total).toBe(0);

    const inserted = await sql.query<{ id: number }>(
      `INSERT INTO products (name, description, price, category_id, updated_at)
       VALUES ('Renumbered', 'quarry tracker', 12.5, $1, now()) RETURNING id`,
      [await categoryId('Optics')],
    );
    const renumbered = inserted.rows[0]!.id + 1_000_000;
    await sql.query('UPDATE products SET id = $2 WHERE id = $1', [
      inserted.rows[0]!.id,
      renumbered,
    ]);
    await expectBrowseTotalsExact();
    expect((await list({ search: 'quarry', min_price: 12, max_price: 13 })).data).toEqual([
      expect.objectContaining({ id: renumbered }),
    ]);
    await sql.query(`DELETE FROM products WHERE name = 'Renumbered'`);
    await expectBrowseTotalsExact();
  });

  it('refuse with a retryable serialization error a REPEATABLE READ writer whose snapshot misses a search posting committed since', async () => {
    // The token `zyxwv` is in the vocabulary (at 999.50) before the transaction starts. Another
    // writer adds it at a second unit of price (a rename: no count moves); the REPEATABLE READ
    // transaction, whose snapshot predates that, adds a product with the token at the same unit.
    // Its commit fails with 40001 (retry), not with a duplicate key, and nothing is half applied.
    const optics = await categoryId('Optics');
    await sql.query(
      `INSERT INTO products (name, description, price, category_id, updated_at)
       VALUES ('Zyxwv one', 'early', 999.5, $1, now())`,
      [optics],
    );
    const { rows } = await sql.query<{ id: number; price: string }>(
      `SELECT id, price::text FROM products WHERE active AND price < 999 ORDER BY id LIMIT 1`,
    );
    const { id, price } = rows[0]!;
    const rr = await sql.connect();
    try {
      await rr.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await rr.query('SELECT count(*) FROM product_search_postings');
      await sql.query(`UPDATE products SET name = name || ' zyxwv' WHERE id = $1`, [id]);
      await rr.query(
        `INSERT INTO products (name, description, price, category_id, updated_at)
         VALUES ('Zyxwv two', 'early', $1, $2, now())`,
        [price, optics],
      );
      await expect(rr.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    } finally {
      await rr.query('ROLLBACK');
      rr.release();
    }
    await expectBrowseTotalsExact();
    expect((await list({ search: 'zyxwv' })).pagination.total).toBe(2);
    await sql.query(`UPDATE products SET name = replace(name, ' zyxwv', '') WHERE id = $1`, [id]);
    await sql.query(`DELETE FROM products WHERE name = 'Zyxwv one'`);
    await expectBrowseTotalsExact();
  });

  it('stay exact after concurrent catalogue imports into the same categories', async () => {
    const catalogue = (n: number): Catalogue => ({
      categories: [],
      products: Array.from({ length: 25 }, (_, i) => ({
        name: `Import ${n}-${i}`,
        price: 10 + i,
        category: ['Dogs', 'Leads', 'Tracking leads', 'Optics', 'Archive'][i % 5]!,
        stock: 1,
        active: (i + n) % 4 !== 0,
      })),
    });
    await Promise.all([1, 2, 3, 4].map((n) => importCatalogue(t.app.db, catalogue(n))));
    await expectBrowseTotalsExact();
    // And again, deactivating some of each other's products at the same time.
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        importCatalogue(t.app.db, {
          ...catalogue(n),
          products: catalogue(n).products.map((p, i) => ({ ...p, active: i % 3 === 0 })),
        }),
      ),
    );
    await expectBrowseTotalsExact();
  });
});

describe('filtered totals (counted rows)', () => {
  const cases: Array<[string, Record<string, string | number>, string, unknown[]]> = [
    [
      'one search term',
      { search: 'lead' },
      `AND (name ILIKE '%lead%' OR description ILIKE '%lead%')`,
      [],
    ],
    [
      'two search terms',
      { search: 'LEAD biothane' },
      `AND (name ILIKE '%lead%' OR description ILIKE '%lead%')
       AND (name ILIKE '%biothane%' OR description ILIKE '%biothane%')`,
      [],
    ],
    [
      'a price range',
      { min_price: 10, max_price: 25.5 },
      'AND price BETWEEN $1 AND $2',
      [10, 25.5],
    ],
    ['a lower price bound', { min_price: 19.99 }, 'AND price >= $1', [19.99]],
    [
      'a search with a price range',
      { search: 'import', min_price: 12, max_price: 30 },
      `AND (name ILIKE '%import%' OR description ILIKE '%import%') AND price BETWEEN $1 AND $2`,
      [12, 30],
    ],
  ];

  it.each(cases)('are exact for %s', async (_label, query, where, params) => {
    const all = await shown(query);
    expect(all.total).toBe(await freshCount({ where, params }));
    expect(all.ids).toHaveLength(all.total);
    expect(all.total).toBeGreaterThan(0);
  });

  it.each(cases)('are exact for %s within a category', async (_label, query, where, params) => {
    const dogs = await categoryId('Dogs');
    const inDogs = await shown({ ...query, category: dogs });
    expect(inDogs.total).toBe(await freshCount({ category: dogs, where, params }));
    expect(inDogs.ids).toHaveLength(inDogs.total);
  });

  it('are 0 with an empty page for a search that matches nothing, and past the last page', async () => {
    expect((await list({ search: 'no-such-thing' })).pagination).toMatchObject({ total: 0 });
    const beyond = await list({ page: 1000 });
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination.total).toBe(await freshCount());
    const beyondFiltered = await list({ page: 1000, min_price: 1 });
    expect(beyondFiltered.data).toEqual([]);
    expect(beyondFiltered.pagination.total).toBe(
      await freshCount({ where: 'AND price >= 1', params: [] }),
    );
  });

  it('is 0 for an unknown category', async () => {
    expect((await list({ category: 987654 })).pagination.total).toBe(0);
    expect((await list({ category: 987654, search: 'lead' })).pagination.total).toBe(0);
  });
});

describe('kept counts and TRUNCATE', () => {
  it('go to zero when products are truncated', async () => {
    await sql.query('TRUNCATE products CASCADE');
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(0);
    await importCatalogue(t.app.db, TEST_CATALOGUE);
    await expectBrowseTotalsExact();
    expect((await list({})).pagination.total).toBe(4);
  });
});
