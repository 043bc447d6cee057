import type { Product, ProductSort } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { Prisma } from '../../generated/prisma/client.js';
import { Decimal } from '../../domain/money.js';
import { PLAN_PER_CALL } from '../../db/prepared-statements.js';
import { likePattern, textHolds, tokensContaining, TOKEN_TERM_LENGTH } from './search-terms.js';
import {
  reviewPageJson,
  reviewRows,
  type ReviewJson,
  type ReviewRow,
} from '../reviews/repository.js';

export interface ProductFilter {
  /** The category and all its descendants. */
  categoryId?: number;
  minPrice?: number;
  maxPrice?: number;
  /** Every term must occur in the name or the description (case-insensitive, taken literally). */
  terms: string[];
}

/**
 * A product's fields as the list and detail statements read them from `products`, once: each
 * column is named like the API's field, so a row carries the API's names and the mapper only
 * converts the two values the database gives in its own form. Each entry is the SQL that reads
 * the column (the key is the column); the category's name comes from `categories`. A field the
 * contract adds fails the build here until its column is listed.
 */
const PRODUCT_COLUMNS = {
  id: 'id',
  name: 'name',
  description: 'description',
  price: 'price::text',
  category_id: 'category_id',
  stock: 'stock',
  active: 'active',
  created_at: 'created_at',
} satisfies Record<Exclude<keyof Product, 'category_name'>, string>;

/** A product as the list and detail statements read it: the API's fields, price and time raw. */
export type ProductRow = Omit<Product, 'price' | 'created_at'> & {
  /** `numeric(10,2)` as text: exact, always two decimals. */
  price: string;
  created_at: Date;
};

/** A row of the list statement: the total (int8, as text), and a product of the page (all null on an empty page). */
type ListRow = { total: string } & (ProductRow | { [K in keyof ProductRow]: null });

/** Page order per sort, ties by id; each is served by an index on (active, key, id). */
const SORT_KEY: Record<ProductSort, { column: Prisma.Sql; direction: Prisma.Sql }> = {
  newest: sortKey('created_at', 'DESC'),
  price_asc: sortKey('price', 'ASC'),
  price_desc: sortKey('price', 'DESC'),
  name: sortKey('name', 'ASC'),
};

function sortKey(column: 'created_at' | 'price' | 'name', direction: 'ASC' | 'DESC') {
  return { column: Prisma.raw(column), direction: Prisma.raw(direction) };
}

/** The columns of a ProductRow, from `products` as `alias` (category name aside). */
const productColumns = (alias: 'p' | 'page') =>
  Prisma.raw(
    Object.entries(PRODUCT_COLUMNS)
      .map(([field, sql]) => (sql === field ? `${alias}.${field}` : `${alias}.${sql} AS ${field}`))
      .join(', '),
  );

/** The same columns as stored (no cast, no name), from `products p`: the page subquery's. */
const productColumnsAsStored = Prisma.raw(
  Object.keys(PRODUCT_COLUMNS)
    .map((column) => `p.${column}`)
    .join(', '),
);

/**
 * The category's name of each page row, looked up by primary key: a subquery the planner needs
 * no join order for, run for the page's rows only.
 */
const categoryName = (alias: 'page') =>
  Prisma.raw(
    `(SELECT c.name FROM categories c WHERE c.id = ${alias}.category_id) AS category_name`,
  );

/**
 * One page of active products matching the filter, and how many match in all: one statement,
 * one round trip, one snapshot (the page and the total always agree). Category names are looked
 * up for the page after its LIMIT, not for every match. The statements start with SELECT (no
 * leading WITH), as read-only statements here do.
 *
 * - Browsing (no search, no price bounds; with or without a category): the total is read from
 *   `category_product_counts`, kept by triggers, a sum over the categories of the subtree,
 *   whatever the number of products; the page walks the sort's index.
 * - Price bounds (without a category): the total is a sum over `price_product_counts` (active
 *   products per whole unit of price), kept by the same triggers, plus a count of the products
 *   in the one or two units a bound cuts: the database function `active_products_priced_within`,
 *   whose plans are cached. The page then takes one of two ways, chosen by the executor from
 *   that total (pricedPage): it walks the sort's index and skips the rows out of range when
 *   many match, or reads the range from the price index and sorts it when few do.
 * - Price bounds within a category: an exact `count(*)` of the matches, through the (active,
 *   price) index; its cost grows with the matches.
 * - A search (searchPage): the terms of three characters or more are read from the search
 *   postings (the ids of the active products holding a token, per unit of price, kept by
 *   triggers) for the units the range touches and intersected there; shorter terms, a category
 *   and the units a bound cuts are tested on the rows (searchMatches). The matches are counted
 *   there, and the page found among them, or, when very many match, by testing the rows the walk
 *   of the sort's index reads. Its cost grows with the postings of the range's units.
 *
 * Each statement is prepared once per connection (db/prepared-statements.ts) and PostgreSQL keeps
 * its generic plan where that plan holds for every value: browsing, the price list and the
 * search (whose plans hold two and three ways of paging, and whose values the planner never
 * sees). Price bounds within a category end in PLAN_PER_CALL, since their best plan depends on
 * the values, and so do searches of many terms (searchPage).
 */
export async function findActiveProducts(
  reads: SqlReads,
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Promise<{ total: number; rows: ProductRow[] }> {
  if (filter.terms.length > 0) {
    return listed(await reads.rows<ListRow>(searchPage(filter, page)));
  }
  const subtree =
    filter.categoryId === undefined ? undefined : subtreeOf(Prisma.sql`${filter.categoryId}`);
  const conditions = [Prisma.sql`p.active`];
  if (subtree) conditions.push(Prisma.sql`p.category_id IN (${subtree})`);
  // As Decimals, like the column: exact, and bound as numeric parameters.
  if (filter.minPrice !== undefined)
    conditions.push(Prisma.sql`p.price >= ${new Decimal(filter.minPrice)}`);
  if (filter.maxPrice !== undefined)
    conditions.push(Prisma.sql`p.price <= ${new Decimal(filter.maxPrice)}`);
  const where = Prisma.join(conditions, ' AND ');
  const { column, direction } = SORT_KEY[page.sort];
  const pageOrder = Prisma.sql`page.${column} ${direction}, page.id ${direction}`;

  let rows: ListRow[];
  if (!subtree && (filter.minPrice !== undefined || filter.maxPrice !== undefined)) {
    rows = await reads.rows<ListRow>(pricedPage(filter, page));
  } else {
    const browsing = filter.minPrice === undefined && filter.maxPrice === undefined;
    const total = browsing
      ? Prisma.sql`SELECT coalesce(sum(active_products), 0)::bigint AS total
                     FROM category_product_counts
                    ${subtree ? Prisma.sql`WHERE category_id IN (${subtree})` : Prisma.empty}`
      : Prisma.sql`SELECT count(*) AS total FROM products p WHERE ${where}`;
    rows = await reads.rows<ListRow>(Prisma.sql`
      SELECT t.total, ${productColumns('page')}, ${categoryName('page')}
        FROM (${total}) t
        LEFT JOIN (
          SELECT ${productColumnsAsStored}
            FROM products p
           WHERE ${where}
           ORDER BY p.${column} ${direction}, p.id ${direction}
           LIMIT ${page.take} OFFSET ${page.skip}
        ) page ON true
       ORDER BY ${pageOrder} ${browsing ? Prisma.empty : PLAN_PER_CALL}`);
  }
  return listed(rows);
}

/** The total and the page of a list statement's rows. */
function listed(rows: ListRow[]): { total: number; rows: ProductRow[] } {
  return {
    total: Number(rows[0]?.total ?? 0),
    // An empty page is the one row of the total with nulls beside it.
    rows: rows
      .filter((r): r is { total: string } & ProductRow => r.id !== null)
      .map(({ total: _total, ...product }) => product),
  };
}

/**
 * The ids of a category and its descendants (UNION: a cycle cannot loop); categories are few, so
 * the page and the total may each walk the tree.
 */
const subtreeOf = (categoryId: Prisma.Sql) => Prisma.sql`WITH RECURSIVE tree AS (
            SELECT id FROM categories WHERE id = ${categoryId}
            UNION
            SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
          )
          SELECT id FROM tree`;

/** How many products are active: the kept counts summed (a row per category). */
const activeProducts = Prisma.sql`(
  SELECT coalesce(sum(active_products), 0) FROM category_product_counts)`;

/**
 * A condition the planner neither serves from an index nor turns into a join: the price list's
 * walk keeps its sort's index (with values it cannot see, the planner would take a price range
 * for a narrow one and read it from the price index), and the search's walks test each row
 * against a hashed set of the matches' ids or against the filter itself.
 */
const testedRowByRow = (condition: Prisma.Sql) =>
  Prisma.sql`CASE WHEN ${condition} THEN true ELSE false END`;

/**
 * What reading a match's row and sorting it costs against one index entry of the search's walk
 * (an index-only scan, the id tested against a hashed set): about 5 µs against 0.4 (EXPLAIN
 * ANALYZE at 100,000 products: 809 rows read in 4.1 ms; 1,884 entries walked in under 1 ms).
 */
const WALK_COST_RATIO = 10;

/**
 * What testing a walked row on its own text costs against putting one match's id in the walk's
 * hashed set: about 1.6 µs against 0.75 (psql timings at 10,000 and 1,000,000 products). With
 * very many matches the walk reads few rows, and testing them beats hashing every match: a term
 * every name holds, at a million products, took 270 ms and some 100 MB of the backend's memory
 * hashed.
 */
const ROW_TEST_RATIO = 2;

/** Searches of up to this many terms are prepared statements; longer ones are planned per call. */
const NAMED_SEARCH_TERMS = 3;

/**
 * The search statement. Its values (terms, bounds, category, LIMIT, OFFSET) sit in the one-row
 * CTE `v` and every condition reads them from there, so the planner sees none of them: a plan
 * made for some values costs what the generic plan costs, and PostgreSQL keeps the generic plan
 * after five calls (its test checks that it does, on 10,000 products). Planning per call cost
 * about as much as running the search at 10,000 products. A missing bound is the widest price a
 * product can have.
 *
 * The matches (searchMatches) are counted once, and the page takes one of three ways, all in the
 * plan under one-time filters on the total, as in the price list (pricedPage). With many matches
 * it walks the sort's index, reading about (skip + take) × active ÷ total entries, and keeps the
 * rows among the matches (a hashed set of their ids); with very many it keeps the walked rows
 * that hold the terms themselves (textHolds), so no hashed set is built; with few it
 * reads the matches' rows and sorts them. The walk reads index entries only and the sort a row
 * per match, WALK_COST_RATIO times dearer, so the walk is taken when total² × WALK_COST_RATIO ≥
 * (skip + take) × active; testing a walked row costs ROW_TEST_RATIO times hashing a match, so the
 * walk tests rows when total² ≥ (skip + take) × active × ROW_TEST_RATIO.
 *
 * The statement's text depends on the sort, the category, and how many terms are long or short
 * (long ones first: AND does not depend on the order), so a connection prepares at most a few
 * hundred of them; searches of more than NAMED_SEARCH_TERMS terms, rare, are planned per call
 * instead of adding more.
 */
function searchPage(
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Prisma.Sql {
  const { column, direction } = SORT_KEY[page.sort];
  const v = statementValues();
  const take = v.value('take', Prisma.sql`${page.take}::bigint`);
  const skip = v.value('skip', Prisma.sql`${page.skip}::bigint`);
  v.value('active', activeProducts);
  const walkLimit = v.derived(
    'walk_limit',
    Prisma.sql`(b.skip + b.take) * b.active / ${WALK_COST_RATIO}::numeric`,
  );
  const testLimit = v.derived(
    'test_limit',
    Prisma.sql`(b.skip + b.take) * b.active * ${ROW_TEST_RATIO}::numeric`,
  );
  const { matches, inRange, holds } = searchMatches(filter, v);
  const order = Prisma.sql`ORDER BY p.${column} ${direction}, p.id ${direction}
                 LIMIT ${take} OFFSET ${skip}`;
  const byPrice = page.sort === 'price_asc' || page.sort === 'price_desc';
  const squared = Prisma.sql`(SELECT n * n FROM counted)`;
  /** A walk of the sort's index keeping the rows that meet `keep`, taken when `when` holds. */
  const walk = (keep: Prisma.Sql, when: Prisma.Sql) => Prisma.sql`(SELECT p.id FROM products p
                         WHERE p.active ${byPrice ? Prisma.sql`AND ${inRange}` : Prisma.empty}
                           AND ${testedRowByRow(keep)}
                           AND ${when}
                         ${order})`;
  return Prisma.sql`
      SELECT t.total, ${productColumns('page')}, ${categoryName('page')}
        FROM (
          WITH v AS MATERIALIZED (${v.row()}),
          ${matches}
          SELECT (SELECT n FROM counted) AS total,
                 ARRAY(${walk(holds, Prisma.sql`${squared} >= ${testLimit}`)}
                       UNION ALL
                       ${walk(
                         Prisma.sql`p.id IN (SELECT id FROM matches)`,
                         Prisma.sql`${squared} >= ${walkLimit} AND ${squared} < ${testLimit}`,
                       )}
                       UNION ALL
                       (SELECT p.id FROM matches m JOIN products p ON p.id = m.id
                         WHERE ${squared} < ${walkLimit}
                         ${order})) AS ids
        ) t
        LEFT JOIN products page ON page.id = ANY (t.ids)
       ORDER BY page.${column} ${direction}, page.id ${direction} ${
         filter.terms.length > NAMED_SEARCH_TERMS ? PLAN_PER_CALL : Prisma.empty
       }`;
}

/**
 * The values of a statement, as the one-row CTE `v` holds them: `value` adds a bound value,
 * `derived` a column computed from the values (`b.<name>`), and each returns how a condition
 * reads it.
 */
function statementValues() {
  const values: Prisma.Sql[] = [];
  const derivations: Prisma.Sql[] = [];
  const read = (name: string) => Prisma.raw(`(SELECT ${name} FROM v)`);
  const value = (name: string, sql: Prisma.Sql) => {
    values.push(Prisma.sql`${sql} AS ${Prisma.raw(name)}`);
    return read(name);
  };
  const derived = (name: string, sql: Prisma.Sql) => {
    derivations.push(Prisma.sql`${sql} AS ${Prisma.raw(name)}`);
    return read(name);
  };
  return {
    value,
    derived,
    row: () =>
      Prisma.sql`SELECT b.*${Prisma.join(
        derivations.map((d) => Prisma.sql`, ${d}`),
        '',
      )} FROM (SELECT ${Prisma.join(values, ', ')}) b`,
  };
}

type StatementValues = ReturnType<typeof statementValues>;

/**
 * The CTEs `matches`, the ids of the active products that match the filter, and `counted`, how
 * many (`n`); the price range as a condition on `products p`; and `holds`, the whole filter as
 * a condition on `products p` (what a walked row is tested on when the matches are very many).
 *
 * Terms of three characters or more are read from `product_search_postings` (migration
 * *_product_search_postings): for each term, the rows of the vocabulary's tokens that contain it
 * (tokensContaining), in the units of price the range touches; per unit, each term's
 * tokens' arrays are merged and the terms' arrays intersected (intarray's `|` and `&`, on sorted
 * arrays). A unit strictly inside the bounds holds only products in range, so its ids are
 * counted as they are, and only those of the one or two units a bound cuts are tested on their
 * rows; with a category or a short term every id is. The cost grows with the rows and ids of the
 * range's units, not with the products that hold the terms elsewhere. The rows tested are looked
 * up by id (`= ANY (ARRAY(…))`): as a join, the generic plan scanned every product in range (a
 * second per search at 10,000 products). Without a long term, the products are read and tested
 * one by one.
 */
function searchMatches(
  filter: ProductFilter,
  v: StatementValues,
): { matches: Prisma.Sql; inRange: Prisma.Sql; holds: Prisma.Sql } {
  const low = v.value('low', Prisma.sql`${new Decimal(filter.minPrice ?? 0)}::numeric`);
  const highest = filter.maxPrice === undefined ? HIGHEST_PRICE : new Decimal(filter.maxPrice);
  const high = v.value('high', Prisma.sql`${highest}::numeric`);
  const inRange = Prisma.sql`p.price >= ${low} AND p.price <= ${high}`;
  const isLong = (term: string) => [...term].length >= TOKEN_TERM_LENGTH;
  const long = filter.terms.filter(isLong);
  const short = filter.terms.filter((t) => !isLong(t));
  /** Conditions tested on a product's row besides `active` and the range. */
  const others: Prisma.Sql[] = [];
  if (filter.categoryId !== undefined) {
    const category = v.value('category', Prisma.sql`${filter.categoryId}::int`);
    others.push(Prisma.sql`p.category_id IN (${subtreeOf(category)})`);
  }
  short.forEach((term, i) => {
    const pattern = v.value(`term_${long.length + i}`, Prisma.sql`${likePattern(term)}::text`);
    others.push(textHolds(pattern));
  });
  const longPatterns = long.map((term, i) =>
    v.value(`term_${i}`, Prisma.sql`${likePattern(term)}::text`),
  );
  // A match on its own row: the condition the postings answer for many products at once.
  const holds = Prisma.join(
    [Prisma.sql`p.active`, inRange, ...longPatterns.map(textHolds), ...others],
    ' AND ',
  );
  const counted = Prisma.sql`counted AS (SELECT count(*) AS n FROM matches)`;
  if (long.length === 0) {
    // Every active product tested, the range row by row: the generic plan would otherwise read a
    // wide range (or none: 0 to the highest price) from the price index.
    const scanned = Prisma.join([testedRowByRow(inRange), ...others], ' AND ');
    const matches = Prisma.sql`matches AS (SELECT p.id FROM products p WHERE p.active AND ${scanned}),
          ${counted}`;
    return { matches, inRange, holds };
  }
  // `active` tested again on the rows looked up: the postings hold active products only.
  const onRows = Prisma.join([Prisma.sql`p.active`, inRange, ...others], ' AND ');
  const tokens = long.map((_, i) =>
    v.derived(`tokens_${i}`, tokensContaining(Prisma.raw(`b.term_${i}`))),
  );
  const anyToken = Prisma.raw(`(SELECT ${long.map((_, i) => `tokens_${i}`).join(' || ')} FROM v)`);
  const lowUnit = v.derived('low_unit', Prisma.sql`floor(b.low)::int`);
  const highUnit = v.derived('high_unit', Prisma.sql`floor(b.high)::int`);
  const perTerm = tokens.map(
    (held, i) =>
      Prisma.sql`int_array_union(s.product_ids) FILTER (WHERE s.token = ANY (${held}::text[]))
                   AS ${Prisma.raw(`term_${i}`)}`,
  );
  const units = Prisma.sql`units AS MATERIALIZED (
            SELECT price_unit, ${Prisma.raw(long.map((_, i) => `term_${i}`).join(' & '))} AS ids
              FROM (SELECT s.price_unit, ${Prisma.join(perTerm, ', ')}
                      FROM product_search_postings s
                     WHERE s.token = ANY (${anyToken}::text[])
                       AND s.price_unit BETWEEN ${lowUnit} AND ${highUnit}
                     GROUP BY s.price_unit) terms
          )`;
  if (filter.categoryId !== undefined || short.length > 0) {
    const matches = Prisma.sql`${units},
          matches AS MATERIALIZED (
            SELECT p.id FROM products p
             WHERE p.id = ANY (ARRAY(SELECT unnest(ids) FROM units)) AND ${onRows}),
          ${counted}`;
    return { matches, inRange, holds };
  }
  const inside = Prisma.sql`WHERE price_unit > ${lowUnit} AND price_unit < ${highUnit}`;
  const matches = Prisma.sql`${units},
          cut AS MATERIALIZED (
            SELECT p.id FROM products p
             WHERE p.id = ANY (ARRAY(SELECT unnest(ids) FROM units
                                      WHERE price_unit = ${lowUnit} OR price_unit = ${highUnit}))
               AND ${onRows}),
          matches AS NOT MATERIALIZED (
            SELECT unnest(ids) AS id FROM units ${inside} UNION ALL SELECT id FROM cut),
          counted AS (SELECT (SELECT coalesce(sum(icount(ids)), 0) FROM units ${inside})
                             + (SELECT count(*) FROM cut) AS n)`;
  return { matches, inRange, holds };
}

/** The highest price `numeric(10,2)` holds. */
const HIGHEST_PRICE = new Decimal('99999999.99');

/**
 * The list statement for price bounds without a category or search: the exact total from the
 * kept counts per unit of price (migration *_active_products_priced_within), and the page one
 * of two ways. Walking the sort's index reads about (skip + take) × active ÷ total rows; reading
 * the range from the (active, price) index and sorting it reads the total. So the page walks
 * when total² ≥ (skip + take) × active, and both ways sit in the plan under one-time filters on
 * the total, which the executor evaluates once: only one runs.
 *
 * The bounds, LIMIT and OFFSET reach the pages through the subquery `t`, so the planner sees
 * none of the values nor the total: a plan made for some values costs what the generic plan
 * costs, so PostgreSQL keeps the generic plan after five calls (a named statement; its test
 * checks that it does, on 10,000 products), and a wide range never runs a narrow range's plan.
 * (With LIMIT and OFFSET as plain parameters, the plans made for their values looked cheaper
 * than the generic one, and PostgreSQL planned every call.) The walk tests the range row by row
 * (testedRowByRow), so that the planner plans the walk of the sort's index. A price sort walks
 * the price index either way. A missing bound is the widest price a product can have
 * (products_price_nonnegative, HIGHEST_PRICE).
 */
function pricedPage(
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Prisma.Sql {
  const { column, direction } = SORT_KEY[page.sort];
  const low = new Decimal(filter.minPrice ?? 0);
  const high = filter.maxPrice === undefined ? HIGHEST_PRICE : new Decimal(filter.maxPrice);
  const pageOf = (condition: Prisma.Sql) => Prisma.sql`(
          SELECT ${productColumnsAsStored}
            FROM products p
           WHERE p.active AND ${condition}
           ORDER BY p.${column} ${direction}, p.id ${direction}
           LIMIT t.take OFFSET t.skip)`;
  const inRange = Prisma.sql`p.price >= t.low AND p.price <= t.high`;
  const pages =
    page.sort === 'price_asc' || page.sort === 'price_desc'
      ? pageOf(inRange)
      : Prisma.sql`${pageOf(Prisma.sql`${testedRowByRow(inRange)}
                                        AND t.total * t.total >= t.walk_limit`)}
          UNION ALL
          ${pageOf(Prisma.sql`${inRange} AND t.total * t.total < t.walk_limit`)}`;
  return Prisma.sql`
      SELECT t.total, ${productColumns('page')}, ${categoryName('page')}
        FROM (
          SELECT b.low, b.high, b.take, b.skip,
                 active_products_priced_within(b.low, b.high) AS total,
                 (b.skip + b.take) * ${activeProducts} AS walk_limit
            FROM (SELECT ${low}::numeric AS low,
                         ${high}::numeric AS high,
                         ${page.take}::bigint AS take,
                         ${page.skip}::bigint AS skip) b
          OFFSET 0
        ) t
        LEFT JOIN LATERAL (${pages}) page ON true
       ORDER BY page.${column} ${direction}, page.id ${direction}`;
}

/** Product detail carries this many of the newest reviews; the reviews endpoint pages the rest. */
const DETAIL_REVIEWS = 10;

/**
 * An active product with its category's name and its newest reviews, or null: one statement,
 * one round trip (the reviews as one JSON array beside the product's columns).
 */
export async function findVisibleProductWithReviews(
  reads: SqlReads,
  id: number,
): Promise<{ product: ProductRow; reviews: ReviewRow[] } | null> {
  const reviews = reviewPageJson(Prisma.sql`p.id`, {
    sort: 'newest',
    skip: 0,
    take: DETAIL_REVIEWS,
  });
  const [row] = await reads.rows<ProductRow & { reviews: ReviewJson[] }>(Prisma.sql`
    SELECT ${productColumns('p')}, c.name AS category_name, ${reviews} AS reviews
      FROM products p
      JOIN categories c ON c.id = p.category_id
     WHERE p.id = ${id} AND p.active`);
  if (!row) return null;
  const { reviews: json, ...product } = row;
  return { product, reviews: reviewRows(json) };
}

export async function isProductVisible(db: Db, id: number): Promise<boolean> {
  const found = await db.product.findFirst({ where: { id, active: true }, select: { id: true } });
  return found !== null;
}
