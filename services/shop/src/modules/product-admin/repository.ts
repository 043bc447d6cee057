import type { AdminProductSort } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import type { KeysetPosition } from '../../domain/keyset.js';
import { likePattern, termCondition } from '../products/search-terms.js';
import { Prisma } from '../../generated/prisma/client.js';

/** The back office's filter of products (the list and its export). */
export interface ProductFilter {
  /** A product number, or words that must all occur in the name or description. */
  q?: string | undefined;
  /** The category and its descendants. */
  categoryId?: number | undefined;
  active?: boolean | undefined;
  stockBelow?: number | undefined;
}

/** A product as the back office reads it (column names as the API's; price and times raw). */
export interface AdminProductRow {
  id: number;
  name: string;
  description: string;
  /** `numeric(10,2)` as text. */
  price: string;
  category_id: number;
  category_name: string;
  stock: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const MAX_ID = 2_147_483_647;
const MAX_TERMS = 10;

const columns = Prisma.sql`p.id, p.name, p.description, p.price::text AS price, p.category_id,
  (SELECT c.name FROM categories c WHERE c.id = p.category_id) AS category_name,
  p.stock, p.active, p.created_at, p.updated_at`;

/**
 * The filter as SQL on `products p`. `q` is the product's number or words that must all occur
 * in its name or description, with the storefront's meaning of a term (termCondition: the
 * storefront reads the same tokens from its postings, which hold active products only).
 */
function conditions(filter: ProductFilter): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (filter.active !== undefined) where.push(Prisma.sql`p.active = ${filter.active}`);
  if (filter.stockBelow !== undefined) where.push(Prisma.sql`p.stock < ${filter.stockBelow}`);
  if (filter.categoryId !== undefined) {
    where.push(Prisma.sql`p.category_id IN (
      WITH RECURSIVE tree AS (
        SELECT id FROM categories WHERE id = ${filter.categoryId}
        UNION
        SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
      ) SELECT id FROM tree)`);
  }
  if (filter.q !== undefined) {
    const terms = filter.q.split(/\s+/).filter(Boolean).slice(0, MAX_TERMS);
    const text = Prisma.join(
      terms.map((term) => termCondition(term, Prisma.sql`${likePattern(term)}`)),
      ' AND ',
    );
    const number = /^\d{1,10}$/.test(filter.q) ? Number(filter.q) : 0;
    where.push(
      number >= 1 && number <= MAX_ID ? Prisma.sql`(p.id = ${number} OR (${text}))` : text,
    );
  }
  return where;
}

const whereSql = (where: Prisma.Sql[]) =>
  where.length ? Prisma.sql`WHERE ${Prisma.join(where, ' AND ')}` : Prisma.empty;

/** Each sort: its ORDER BY, the value a cursor keeps, and "after that position". */
const SORTS: Record<
  AdminProductSort,
  { order: Prisma.Sql; value: Prisma.Sql; after: (p: KeysetPosition) => Prisma.Sql }
> = {
  '-created_at': {
    order: Prisma.sql`p.created_at DESC, p.id DESC`,
    value: Prisma.sql`p.created_at`,
    after: (p) => Prisma.sql`(p.created_at, p.id) < (${p.value}::timestamptz, ${p.id})`,
  },
  name: {
    order: Prisma.sql`p.name ASC, p.id ASC`,
    value: Prisma.sql`p.name`,
    after: (p) => Prisma.sql`(p.name, p.id) > (${p.value}, ${p.id})`,
  },
  stock: {
    order: Prisma.sql`p.stock ASC, p.id ASC`,
    value: Prisma.sql`p.stock`,
    after: (p) => Prisma.sql`(p.stock, p.id) > (${p.value}::int, ${p.id})`,
  },
  price: {
    order: Prisma.sql`p.price ASC, p.id ASC`,
    value: Prisma.sql`p.price`,
    after: (p) => Prisma.sql`(p.price, p.id) > (${p.value}::numeric, ${p.id})`,
  },
  '-price': {
    order: Prisma.sql`p.price DESC, p.id DESC`,
    value: Prisma.sql`p.price`,
    after: (p) => Prisma.sql`(p.price, p.id) < (${p.value}::numeric, ${p.id})`,
  },
};

/** A page of the filter's products in `sort`, each with its sort value as text (`position`). */
export function findProductPage(
  db: Db,
  filter: ProductFilter,
  sort: AdminProductSort,
  take: number,
  after?: KeysetPosition,
): Promise<Array<AdminProductRow & { position: string }>> {
  const { order, value, after: afterSql } = SORTS[sort];
  const where = conditions(filter);
  if (after) where.push(afterSql(after));
  return db.$queryRaw`
    SELECT ${columns}, ${value}::text AS position
      FROM products p ${whereSql(where)}
     ORDER BY ${order}
     LIMIT ${take}`;
}

/** The exact number of products matching the filter. */
export async function countProducts(db: Db, filter: ProductFilter): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ total: number }>>`
    SELECT count(*)::int AS total FROM products p ${whereSql(conditions(filter))}`;
  return row?.total ?? 0;
}

/** The filter's products by id, `batch` at a time (keyset), for a streamed export. */
export async function* productBatches(
  db: Db,
  filter: ProductFilter,
  batch = 1_000,
): AsyncGenerator<AdminProductRow[]> {
  let afterId = 0;
  for (;;) {
    const where = [...conditions(filter), Prisma.sql`p.id > ${afterId}`];
    const rows = await db.$queryRaw<AdminProductRow[]>`
      SELECT ${columns} FROM products p ${whereSql(where)} ORDER BY p.id LIMIT ${batch}`;
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    afterId = rows.at(-1)!.id;
  }
}

export async function findAdminProduct(db: Db | Tx, id: number): Promise<AdminProductRow | null> {
  const [row] = await db.$queryRaw<AdminProductRow[]>`
    SELECT ${columns} FROM products p WHERE p.id = ${id}`;
  return row ?? null;
}

/** The products of these ids, locked until the transaction ends (ascending id, as orders lock). */
export const lockAdminProducts = (tx: Tx, ids: number[]): Promise<AdminProductRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : tx.$queryRaw<AdminProductRow[]>`
        SELECT ${columns} FROM products p WHERE p.id = ANY(${ids}::int[]) ORDER BY p.id FOR UPDATE`;

/** The product's fields as the back office writes them. */
export interface ProductFields {
  name: string;
  description: string;
  /** Exact, two decimals. */
  price: string;
  categoryId: number;
  active: boolean;
}

export async function insertProduct(
  tx: Tx,
  fields: ProductFields & { stock: number },
): Promise<number> {
  const row = await tx.product.create({ data: fields, select: { id: true } });
  return row.id;
}

export async function updateProductFields(
  tx: Tx,
  id: number,
  fields: Partial<ProductFields> & { stock?: number },
): Promise<void> {
  await tx.product.update({ where: { id }, data: fields, select: { id: true } });
}

export const findProductsByIds = (db: Db | Tx, ids: number[]): Promise<AdminProductRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.$queryRaw<AdminProductRow[]>`
        SELECT ${columns} FROM products p WHERE p.id = ANY(${ids}::int[])`;

/** The names of the categories of these ids (id → name). */
export async function findCategoryNames(db: Db | Tx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.category.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true },
  });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Which product holds each (category, name) now: `category_id NUL name` → product id. */
export async function findNameHolders(
  db: Db | Tx,
  pairs: Array<{ categoryId: number; name: string }>,
): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: number; category_id: number; name: string }>>`
    SELECT p.id, p.category_id, p.name
      FROM products p
      JOIN unnest(${pairs.map((p) => p.categoryId)}::int[], ${pairs.map((p) => p.name)}::text[])
           AS wanted(category_id, name)
        ON p.category_id = wanted.category_id AND p.name = wanted.name`;
  return new Map(rows.map((r) => [`${r.category_id}\u0000${r.name}`, r.id]));
}
