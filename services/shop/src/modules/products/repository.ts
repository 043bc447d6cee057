import type { Product, ProductSort } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { Prisma } from '../../generated/prisma/client.js';
import { Decimal } from '../../domain/money.js';
import { PLAN_PER_CALL } from '../../db/prepared-statements.js';
import { likePattern, termCondition, textHolds, TOKEN_TERM_LENGTH } from './search-terms.js';
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
 * - A search (searchPage): each term is found through the token index, or by a `LIKE` on
 *   `search_text` under three characters (termCondition); a narrow price range is read from the
 *   price index instead. The matches are found once (a MATERIALIZED CTE of ids and sort keys)
 *   and both counted and paged from there, instead of the page walking the sort's index and
 *   testing each row's text. Its cost grows with the products that hold every term.
 *
 * Each statement is prepared once per connection (db/prepared-statements.ts) and PostgreSQL keeps
 * its generic plan where that plan holds for every value: browsing, the price list and the
 * search (both of whose plans hold two ways of reading, and whose values the planner never
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
 * A condition the planner neither serves from an index nor estimates as selective: with values it
 * cannot see, it would take a price range for a narrow one and read it from the price index.
 */
const testedRowByRow = (condition: Prisma.Sql) =>
  Prisma.sql`CASE WHEN ${condition} THEN true ELSE false END`;

/** Searches of up to this many terms are prepared statements; longer ones are planned per call. */
const NAMED_SEARCH_TERMS = 3;

/**
 * A price range holding at most this many active products, or this fraction of them, is read from
 * the price index, its rows' text tested one by one (about a microsecond and a half each), instead
 * of from the token index, whose scan reads every product holding the terms whatever their price
 * (one common term at a million products: 190,220 of them, about 130 ms, against 5 ms for the
 * 4,000 products of a one-unit range).
 */
const NARROW_RANGE = { products: 2_000, fraction: 1 / 100 };

/**
 * The search statement. Its values (terms, bounds, category, LIMIT, OFFSET) sit in the one-row
 * CTE `v` and every condition reads them from there, so the planner sees none of them: a plan
 * made for some values costs what the generic plan costs, and PostgreSQL keeps the generic plan
 * after five calls (its test checks that it does, on 10,000 products). Planning per call cost
 * about as much as running the search at 10,000 products.
 *
 * The matches are read one of two ways, both in the plan under one-time filters on `v.narrow`,
 * which the executor evaluates once: the token index finds the products that hold every term and
 * the heap gives their price, or, for a narrow range (NARROW_RANGE, from the kept counts of the
 * units of price it touches), the price index gives the range and each row's text is tested. In
 * the first way the range is tested row by row (testedRowByRow): ANDing the token scan with the
 * price index reads every product in the range (at a million products, slower than testing the
 * range on the heap). A missing bound is the widest price a product can have.
 *
 * The statement's text depends on the sort, the category, whether there are bounds, and how many
 * terms are long or short (long ones first: AND does not depend on the order), so a connection
 * prepares at most a few hundred of them; searches of more than NAMED_SEARCH_TERMS terms, rare,
 * are planned per call instead of adding more.
 */
function searchPage(
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Prisma.Sql {
  const { column, direction } = SORT_KEY[page.sort];
  const values: Prisma.Sql[] = [];
  /** Puts a value into `v` and returns how a condition reads it. */
  const value = (name: string, sql: Prisma.Sql) => {
    values.push(Prisma.sql`${sql} AS ${Prisma.raw(name)}`);
    return Prisma.raw(`(SELECT ${name} FROM v)`);
  };
  const take = value('take', Prisma.sql`${page.take}::bigint`);
  const skip = value('skip', Prisma.sql`${page.skip}::bigint`);
  const common = [Prisma.sql`p.active`];
  if (filter.categoryId !== undefined) {
    const category = value('category', Prisma.sql`${filter.categoryId}::int`);
    common.push(Prisma.sql`p.category_id IN (${subtreeOf(category)})`);
  }
  const long = (term: string) => [...term].length >= TOKEN_TERM_LENGTH;
  const terms = [...filter.terms.filter(long), ...filter.terms.filter((t) => !long(t))].map(
    (term, i) => ({ term, pattern: value(`term_${i}`, Prisma.sql`${likePattern(term)}::text`) }),
  );
  const byIndex = terms.map(({ term, pattern }) => termCondition(term, pattern));
  const bounded = filter.minPrice !== undefined || filter.maxPrice !== undefined;
  let matches: Prisma.Sql;
  if (!bounded) {
    matches = Prisma.sql`SELECT p.id, p.${column} AS key FROM products p
             WHERE ${Prisma.join([...common, ...byIndex], ' AND ')}`;
  } else {
    const low = value('low', Prisma.sql`${new Decimal(filter.minPrice ?? 0)}::numeric`);
    const highest = filter.maxPrice === undefined ? HIGHEST_PRICE : new Decimal(filter.maxPrice);
    const high = value('high', Prisma.sql`${highest}::numeric`);
    const inRange = Prisma.sql`p.price >= ${low} AND p.price <= ${high}`;
    const byText = terms.map(({ pattern }) => textHolds(pattern));
    matches = Prisma.sql`SELECT p.id, p.${column} AS key FROM products p
             WHERE ${Prisma.join([...common, testedRowByRow(inRange), ...byIndex], ' AND ')}
               AND NOT (SELECT narrow FROM v)
            UNION ALL
            SELECT p.id, p.${column} AS key FROM products p
             WHERE ${Prisma.join([...common, inRange, ...byText], ' AND ')}
               AND (SELECT narrow FROM v)`;
  }
  const narrow = bounded
    ? Prisma.sql`, (SELECT coalesce(sum(c.active_products), 0)
                      FROM price_product_counts c
                     WHERE c.price_unit BETWEEN floor(b.low)::int AND floor(b.high)::int)
                    <= greatest(${NARROW_RANGE.products}::bigint,
                                ${activeProducts} * ${NARROW_RANGE.fraction}::numeric) AS narrow`
    : Prisma.empty;
  return Prisma.sql`
      SELECT t.total, ${productColumns('page')}, ${categoryName('page')}
        FROM (
          WITH v AS MATERIALIZED (
            SELECT b.* ${narrow} FROM (SELECT ${Prisma.join(values, ', ')}) b
          ),
          matches AS MATERIALIZED (${matches})
          SELECT (SELECT count(*) FROM matches) AS total,
                 ARRAY(SELECT id FROM matches
                        ORDER BY key ${direction}, id ${direction}
                        LIMIT ${take} OFFSET ${skip}) AS ids
        ) t
        LEFT JOIN products page ON page.id = ANY (t.ids)
       ORDER BY page.${column} ${direction}, page.id ${direction} ${
         filter.terms.length > NAMED_SEARCH_TERMS ? PLAN_PER_CALL : Prisma.empty
       }`;
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
