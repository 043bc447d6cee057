// Catalogues of BULK_FROM products and more (the 1,000,000-product scaling run) are loaded in bulk:
// the shop's catalogue import upserts one product at a time (about 200 a second), which would take
// over an hour at a million. The categories and the 2,000 customers are loaded as for the smaller
// data sets (the shop's `catalogue:import` command, then INSERTs: `loadShopDataset` with no
// products); the products are the same generator's (`generateCatalogue`, whose first N products
// are the N-product data set's), written with multi-row INSERTs from arrays; the 10 reviews per
// product are generated in SQL (INSERT … SELECT over generate_series). Secondary indexes and
// foreign keys of the two tables are dropped for the load and created again from their own
// definitions afterwards (which checks every foreign key), so the schema is the migrated one.
// Triggers stay enabled.
import pg from 'pg';
import type { Context } from '../context.js';
import { migrateShopDatabase } from '../infra/shop-database.js';
import { datasetName, description } from './cache.js';
import {
  CATEGORY_COUNT,
  generateCatalogue,
  loadShopDataset,
  PHRASES,
  REVIEWS_PER_PRODUCT,
  SHOP_SEED,
  type ShopDatasetSummary,
} from './shop-dataset.js';

/** Catalogues of this many products or more are loaded in bulk. */
export const BULK_FROM = 200_000;
/** Bump when the bulk loader changes, so that cached bulk data sets are rebuilt. */
export const BULK_LOADER_VERSION = 1;

export const BULK_LOADED_BY =
  "categories through the shop's catalogue:import command and customers with a multi-row INSERT (loadShopDataset with no products); products from the same generator written in bulk (multi-row INSERT from arrays, 20,000 rows a statement, bypassing importCatalogue); 10 reviews per product generated in SQL (INSERT … SELECT over generate_series); secondary indexes and foreign keys of products and reviews dropped for the load and re-created from their definitions afterwards";

export const bulkDatasetName = (products: number) =>
  `${datasetName(products)}_bulk${BULK_LOADER_VERSION}`;

export type BulkDatasetSummary = ShopDatasetSummary & {
  productSeconds: number;
  reviewSeconds: number;
  indexSeconds: number;
  vacuumSeconds: number;
  totalSeconds: number;
};

const PRODUCT_BATCH = 20_000;
const REVIEW_BATCH_PRODUCTS = 100_000;

// Review texts: reviews are never searched, the texts only give the rows a realistic width.
const REVIEW_ADJECTIVES = [
  'Robust',
  'Light',
  'Waterproof',
  'Reflective',
  'Padded',
  'Compact',
  'Classic',
  'Heavy-duty',
  'Adjustable',
  'Quiet',
  'Bright',
  'Soft',
];
const sqlArray = (items: string[]) =>
  `ARRAY[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ')}]`;

interface Definition {
  name: string;
  sql: string;
}

type Sql = <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => Promise<T[]>;

/** Secondary indexes (not backing a constraint) and foreign keys of `tables`, with their DDL. */
async function droppable(
  sql: Sql,
  tables: string[],
): Promise<{ indexes: Definition[]; foreignKeys: Definition[] }> {
  const indexes = await sql<{ name: string; sql: string }>(
    `SELECT ci.relname AS name, pg_get_indexdef(i.indexrelid) AS sql
       FROM pg_index i
       JOIN pg_class ci ON ci.oid = i.indexrelid
       JOIN pg_class ct ON ct.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = ct.relnamespace
      WHERE n.nspname = 'public' AND ct.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
      ORDER BY ci.relname`,
    [tables],
  );
  const foreignKeys = await sql<{ name: string; sql: string }>(
    `SELECT c.conname AS name,
            format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
                   pg_get_constraintdef(c.oid)) AS sql
       FROM pg_constraint c
       JOIN pg_class ct ON ct.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = ct.relnamespace
      WHERE n.nspname = 'public' AND c.contype = 'f' AND ct.relname = ANY($1)
      ORDER BY c.conname`,
    [tables],
  );
  return { indexes, foreignKeys };
}

async function loadBulk(
  ctx: Context,
  database: string,
  products: number,
): Promise<BulkDatasetSummary> {
  const started = Date.now();
  const url = ctx.pg.url(database);
  // Categories through the shop's import command and the customers, as for the smaller data sets.
  const base = await loadShopDataset(url, 0, ctx.log);
  // One session for the rest (its maintenance_work_mem applies to the index builds).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await loadRest(ctx, client, products, base, started);
  } finally {
    await client.end();
  }
}

async function loadRest(
  ctx: Context,
  client: pg.Client,
  products: number,
  base: ShopDatasetSummary,
  started: number,
): Promise<BulkDatasetSummary> {
  const sql: Sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await client.query<T>(text, params)).rows;

  const tables = ['products', 'reviews'];
  const { indexes, foreignKeys } = await droppable(sql, tables);
  for (const fk of foreignKeys) {
    const [table] = fk.sql.match(/^ALTER TABLE (\S+)/)!.slice(1);
    await sql(`ALTER TABLE ${table} DROP CONSTRAINT "${fk.name}"`);
  }
  for (const index of indexes) await sql(`DROP INDEX "${index.name}"`);

  const productStarted = Date.now();
  const categories = new Map(
    (await sql<{ id: number; name: string }>('SELECT id, name FROM categories')).map((r) => [
      r.name,
      r.id,
    ]),
  );
  const catalogue = generateCatalogue(products).products;
  // Like the import's: created_at rises with the id, a millisecond apart.
  const createdFrom = Date.parse('2026-11-01T00:00:00Z');
  for (let from = 0; from < catalogue.length; from += PRODUCT_BATCH) {
    const batch = catalogue.slice(from, from + PRODUCT_BATCH);
    await sql(
      `INSERT INTO products (name, description, price, category_id, stock, active, created_at, updated_at)
       SELECT name, description, price, category_id, stock, active,
              to_timestamp(($7::bigint + ord) / 1000.0), to_timestamp(($7::bigint + ord) / 1000.0)
         FROM unnest($1::text[], $2::text[], $3::numeric[], $4::int[], $5::int[], $6::boolean[])
              WITH ORDINALITY AS p(name, description, price, category_id, stock, active, ord)
        ORDER BY ord`,
      [
        batch.map((p) => p.name),
        batch.map((p) => p.description ?? ''),
        batch.map((p) => p.price.toFixed(2)),
        batch.map((p) => {
          const id = categories.get(p.category);
          if (id === undefined) throw new Error(`bulk load: unknown category ${p.category}`);
          return id;
        }),
        batch.map((p) => p.stock),
        batch.map((p) => p.active ?? true),
        String(createdFrom + from),
      ],
    );
    if ((from / PRODUCT_BATCH) % 10 === 9) ctx.log(`  ${from + batch.length} products`);
  }
  const productSeconds = (Date.now() - productStarted) / 1000;
  ctx.log(`  wrote ${products} products in ${productSeconds.toFixed(1)} s (bulk INSERT)`);

  // Ten distinct customers per product (offsets of a tenth of the customers apart), ratings
  // weighted like the generator's, dates over the two years before 2026-11-01.
  const reviewStarted = Date.now();
  const { first, last } = (
    await sql<{ first: number; last: number }>(
      'SELECT min(id) AS first, max(id) AS last FROM products',
    )
  )[0]!;
  const { customers } = (
    await sql<{ customers: number }>('SELECT count(*)::int AS customers FROM customers')
  )[0]!;
  const step = Math.floor(customers / REVIEWS_PER_PRODUCT);
  let reviews = 0;
  for (let from = first; from <= last; from += REVIEW_BATCH_PRODUCTS) {
    const inserted = await client.query(
      `WITH c AS (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS n FROM customers),
            r AS (
              SELECT p.id AS product_id, k,
                     hashint8extended(p.id::bigint * 16 + k, 1) & 2147483647 AS r1,
                     hashint8extended(p.id::bigint * 16 + k, 2) & 2147483647 AS r2,
                     hashint8extended(p.id::bigint * 16 + k, 3) & 2147483647 AS r3,
                     hashint8extended(p.id::bigint * 16 + k, 4) & 2147483647 AS r4,
                     hashint8extended(p.id::bigint, 5) & 2147483647 AS h
                FROM products p CROSS JOIN generate_series(0, $3::int - 1) AS k
               WHERE p.id BETWEEN $1 AND $2
            ),
            v AS (
              SELECT r.*, (ARRAY[5, 5, 5, 4, 4, 4, 3, 2, 1])[1 + r1 % 9] AS rating FROM r
            )
       INSERT INTO reviews (product_id, customer_id, rating, title, comment, helpful_count, created_at)
       SELECT v.product_id,
              c.ids[1 + (v.h % c.n + v.k * $4::int) % c.n],
              v.rating,
              (${sqlArray(REVIEW_ADJECTIVES)})[1 + v.r2 % ${REVIEW_ADJECTIVES.length}] || ' and worth it',
              initcap(left((${sqlArray(PHRASES)})[1 + v.r3 % ${PHRASES.length}], 1))
                || substr((${sqlArray(PHRASES)})[1 + v.r3 % ${PHRASES.length}], 2)
                || '; ' || (${sqlArray(PHRASES)})[1 + v.r4 % ${PHRASES.length}]
                || '. Rated ' || v.rating || ' of 5.',
              v.r4 % 21,
              timestamptz '2026-11-01 00:00:00+00' - make_interval(secs => v.r1 % 63072000)
         FROM v CROSS JOIN c`,
      [from, Math.min(last, from + REVIEW_BATCH_PRODUCTS - 1), REVIEWS_PER_PRODUCT, step],
    );
    reviews += inserted.rowCount ?? 0;
    ctx.log(`  ${reviews} reviews`);
  }
  const reviewSeconds = (Date.now() - reviewStarted) / 1000;
  ctx.log(`  wrote ${reviews} reviews in ${reviewSeconds.toFixed(1)} s (INSERT … SELECT)`);

  const indexStarted = Date.now();
  await sql(`SET maintenance_work_mem = '512MB'`);
  for (const index of indexes) {
    const t = Date.now();
    await sql(index.sql);
    ctx.log(`  index ${index.name} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  for (const fk of foreignKeys) await sql(fk.sql);
  const indexSeconds = (Date.now() - indexStarted) / 1000;
  ctx.log(
    `  ${indexes.length} indexes and ${foreignKeys.length} foreign keys re-created in ${indexSeconds.toFixed(1)} s`,
  );

  const vacuumStarted = Date.now();
  await sql('VACUUM (ANALYZE)');
  const vacuumSeconds = (Date.now() - vacuumStarted) / 1000;
  const { active } = (
    await sql<{ active: number }>('SELECT count(*)::int AS active FROM products WHERE active')
  )[0]!;
  return {
    categories: CATEGORY_COUNT,
    products,
    activeProducts: active,
    customers: base.customers,
    reviews,
    seed: SHOP_SEED,
    importSeconds: base.importSeconds,
    bulkSeconds: (Date.now() - productStarted) / 1000,
    productSeconds,
    reviewSeconds,
    indexSeconds,
    vacuumSeconds,
    totalSeconds: (Date.now() - started) / 1000,
  };
}

/**
 * The template database of a bulk-loaded data set, built when missing (cached in bench/.data
 * like the others) and migrated to the latest schema; the same contract as `ensureShopDataset`.
 */
export async function ensureBulkShopDataset(
  ctx: Context,
  products: number,
): Promise<{ database: string; summary: BulkDatasetSummary; built: boolean }> {
  const database = bulkDatasetName(products);
  let built = false;
  if (!(await ctx.pg.databaseExists(database)) || !(await description(ctx, database))) {
    ctx.log(
      `building the shop data set in bulk: ${products} products (cached in ${ctx.options.dataDir})`,
    );
    const building = `${database}_building`;
    await ctx.pg.recreateDatabase(building);
    await migrateShopDatabase(ctx.pg.url(building));
    const summary = await loadBulk(ctx, building, products);
    ctx.log(`  built in ${summary.totalSeconds.toFixed(0)} s`);
    await ctx.pg.query(
      `COMMENT ON DATABASE "${building}" IS '${JSON.stringify(summary).replaceAll("'", "''")}'`,
    );
    await ctx.pg.dropDatabase(database);
    await ctx.pg.renameDatabase(building, database);
    built = true;
  }
  const migrated = await migrateShopDatabase(ctx.pg.url(database));
  if (!migrated.includes('no pending migrations')) {
    ctx.log(`  ${database}: ${migrated}`);
    await ctx.pg.query('VACUUM ANALYZE', [], database);
  }
  const summary = JSON.parse((await description(ctx, database))!) as BulkDatasetSummary;
  return { database, summary, built };
}

/**
 * The bulk load bypasses the catalogue import: whatever the shop keeps beside the rows must still
 * agree with them. Checks the totals the shop reports for the whole list and for a root category
 * (descendants included) against counts of the rows; throws when they differ.
 */
export async function checkShopTotals(
  ctx: Context,
  shopUrl: string,
  headers: Record<string, string>,
  database: string,
): Promise<void> {
  const total = async (query: string) => {
    const res = await fetch(`${shopUrl}/products?limit=1${query}`, { headers });
    if (res.status !== 200) throw new Error(`GET /products?limit=1${query}: ${res.status}`);
    return ((await res.json()) as { pagination: { total: number } }).pagination.total;
  };
  const [{ root, rows, inRoot }] = (await ctx.pg.query(
    `WITH RECURSIVE root AS (SELECT min(id) AS id FROM categories WHERE parent_id IS NULL),
          tree AS (SELECT id FROM categories WHERE id = (SELECT id FROM root)
                   UNION ALL SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id)
     SELECT (SELECT id FROM root) AS root,
            (SELECT count(*)::int FROM products WHERE active) AS rows,
            (SELECT count(*)::int FROM products WHERE active AND category_id IN (SELECT id FROM tree)) AS "inRoot"`,
    [],
    database,
  )) as [{ root: number; rows: number; inRoot: number }];
  const [all, category] = [await total(''), await total(`&category=${root}`)];
  if (all !== rows || category !== inRoot) {
    throw new Error(
      `the shop's totals disagree with the rows of ${database}: list ${all} (rows ${rows}), category ${root} ${category} (rows ${inRoot})`,
    );
  }
}
