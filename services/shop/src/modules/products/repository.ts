import type { ProductSort } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { Decimal } from '../../domain/money.js';
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

/** A product as the list and detail statements read it, with its category's name. */
export interface ProductRow {
  id: number;
  name: string;
  description: string;
  /** `numeric(10,2)` as text: exact, always two decimals. */
  price: string;
  categoryId: number;
  categoryName: string;
  stock: number;
  active: boolean;
  createdAt: Date;
}

/** A row of the list statement: the total, and a product of the page (all null on an empty page). */
type ListRow = { total: bigint } & (ProductRow | { [K in keyof ProductRow]: null });

/** Page order per sort, ties by id; each is served by an index on (active, key, id). */
const ORDER_BY: Record<ProductSort, { inner: Prisma.Sql; outer: Prisma.Sql }> = {
  newest: order('created_at', 'DESC'),
  price_asc: order('price', 'ASC'),
  price_desc: order('price', 'DESC'),
  name: order('name', 'ASC'),
};

function order(column: 'created_at' | 'price' | 'name', direction: 'ASC' | 'DESC') {
  return {
    inner: Prisma.raw(`p.${column} ${direction}, p.id ${direction}`),
    outer: Prisma.raw(`page.${column} ${direction}, page.id ${direction}`),
  };
}

/**
 * One page of active products matching the filter, and how many match in all: one statement,
 * one round trip, one snapshot (the page and the total always agree).
 *
 * The total of a browse (no search, no price bounds; with or without a category) is read from
 * `category_product_counts`, kept by triggers: a sum over the categories of the subtree, whatever
 * the number of products. With a search or price bounds it is an exact `count(*)` of the matching
 * rows through the trigram and (active, price) indexes: its cost grows with the matches.
 * Category names are joined to the page after its LIMIT, not to every match. The statement
 * starts with SELECT (no leading WITH), as read-only statements here do.
 */
export async function findActiveProducts(
  db: Db,
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Promise<{ total: number; rows: ProductRow[] }> {
  // The category and its descendants (UNION: a cycle cannot loop); categories are few, so the
  // page and the total may each walk the tree.
  const subtree =
    filter.categoryId === undefined
      ? undefined
      : Prisma.sql`WITH RECURSIVE tree AS (
            SELECT id FROM categories WHERE id = ${filter.categoryId}
            UNION
            SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
          )
          SELECT id FROM tree`;
  const conditions = [Prisma.sql`p.active`];
  if (subtree) conditions.push(Prisma.sql`p.category_id IN (${subtree})`);
  // As Decimals, like the column: exact, and bound as numeric parameters.
  if (filter.minPrice !== undefined)
    conditions.push(Prisma.sql`p.price >= ${new Decimal(filter.minPrice)}`);
  if (filter.maxPrice !== undefined)
    conditions.push(Prisma.sql`p.price <= ${new Decimal(filter.maxPrice)}`);
  for (const term of filter.terms) {
    const pattern = `%${likeLiteral(term)}%`;
    conditions.push(Prisma.sql`(p.name ILIKE ${pattern} OR p.description ILIKE ${pattern})`);
  }
  const where = Prisma.join(conditions, ' AND ');
  const browsing =
    filter.terms.length === 0 && filter.minPrice === undefined && filter.maxPrice === undefined;
  const total = browsing
    ? Prisma.sql`SELECT coalesce(sum(active_products), 0)::bigint AS total
                   FROM category_product_counts
                  ${subtree ? Prisma.sql`WHERE category_id IN (${subtree})` : Prisma.empty}`
    : Prisma.sql`SELECT count(*) AS total FROM products p WHERE ${where}`;
  const { inner, outer } = ORDER_BY[page.sort];
  const rows = await db.$queryRaw<ListRow[]>`
    SELECT t.total, page.id, page.name, page.description, page.price::text AS price,
           page.category_id AS "categoryId", c.name AS "categoryName", page.stock, page.active,
           page.created_at AS "createdAt"
      FROM (${total}) t
      LEFT JOIN (
        (SELECT p.id, p.name, p.description, p.price, p.category_id, p.stock, p.active,
                p.created_at
           FROM products p
          WHERE ${where}
          ORDER BY ${inner}
          LIMIT ${page.take} OFFSET ${page.skip}) page
        JOIN categories c ON c.id = page.category_id
      ) ON true
     ORDER BY ${outer}`;
  return {
    total: Number(rows[0]?.total ?? 0),
    // An empty page is the one row of the total with nulls beside it.
    rows: rows.filter((r): r is { total: bigint } & ProductRow => r.id !== null),
  };
}

/** Product detail carries this many of the newest reviews; the reviews endpoint pages the rest. */
const DETAIL_REVIEWS = 10;

/**
 * An active product with its category's name and its newest reviews, or null: one statement,
 * one round trip (the reviews as one JSON array beside the product's columns).
 */
export async function findVisibleProductWithReviews(
  db: Db,
  id: number,
): Promise<{ product: ProductRow; reviews: ReviewRow[] } | null> {
  const reviews = reviewPageJson(Prisma.sql`p.id`, {
    sort: 'newest',
    skip: 0,
    take: DETAIL_REVIEWS,
  });
  const [row] = await db.$queryRaw<Array<ProductRow & { reviews: ReviewJson[] }>>`
    SELECT p.id, p.name, p.description, p.price::text AS price, p.category_id AS "categoryId",
           c.name AS "categoryName", p.stock, p.active, p.created_at AS "createdAt",
           ${reviews} AS reviews
      FROM products p
      JOIN categories c ON c.id = p.category_id
     WHERE p.id = ${id} AND p.active`;
  if (!row) return null;
  const { reviews: json, ...product } = row;
  return { product, reviews: reviewRows(json) };
}

export async function isProductVisible(db: Db, id: number): Promise<boolean> {
  const found = await db.product.findFirst({ where: { id, active: true }, select: { id: true } });
  return found !== null;
}

/** LIKE's wildcards (and its escape character) are escaped, so that a term matches literally. */
const likeLiteral = (term: string) => term.replace(/[\\%_]/g, '\\$&');
