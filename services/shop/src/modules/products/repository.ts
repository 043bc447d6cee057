import type { ProductSort } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { Decimal } from '../../domain/money.js';
import { reviewWithAuthor } from '../reviews/repository.js';

export const productWithCategory = {
  category: { select: { name: true } },
} satisfies Prisma.ProductInclude;

export type ProductRow = Prisma.ProductGetPayload<{ include: typeof productWithCategory }>;

const ORDER_BY: Record<ProductSort, Prisma.ProductOrderByWithRelationInput[]> = {
  newest: [{ createdAt: 'desc' }, { id: 'desc' }],
  price_asc: [{ price: 'asc' }, { id: 'asc' }],
  price_desc: [{ price: 'desc' }, { id: 'desc' }],
  name: [{ name: 'asc' }, { id: 'asc' }],
};

export interface ProductFilter {
  categoryIds?: number[];
  minPrice?: number;
  maxPrice?: number;
  /** Every term must occur in the name or the description (case-insensitive, taken literally). */
  terms: string[];
}

/** One page of active products matching the filter, and how many match in all. */
export async function findActiveProducts(
  db: Db,
  filter: ProductFilter,
  page: { sort: ProductSort; skip: number; take: number },
): Promise<{ total: number; rows: ProductRow[] }> {
  const where: Prisma.ProductWhereInput = {
    active: true,
    ...(filter.categoryIds !== undefined && { categoryId: { in: filter.categoryIds } }),
    // As Decimals, like the column: Prisma turns those into bound parameters and reuses its
    // compiled query plan, while plain numbers stay literals in a plan compiled for each price.
    ...((filter.minPrice !== undefined || filter.maxPrice !== undefined) && {
      price: { gte: decimalOrUndefined(filter.minPrice), lte: decimalOrUndefined(filter.maxPrice) },
    }),
    AND: filter.terms.map(likeLiteral).map((term) => ({
      OR: [
        { name: { contains: term, mode: 'insensitive' } },
        { description: { contains: term, mode: 'insensitive' } },
      ],
    })),
  };
  const [total, rows] = await Promise.all([
    db.product.count({ where }),
    db.product.findMany({
      where,
      include: productWithCategory,
      orderBy: ORDER_BY[page.sort],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { total, rows };
}

/** An active product with its category and its 10 newest reviews, or null. */
export const findVisibleProductWithReviews = (db: Db, id: number) =>
  db.product.findFirst({
    where: { id, active: true },
    include: {
      ...productWithCategory,
      reviews: { ...reviewWithAuthor, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 10 },
    },
  });

export async function isProductVisible(db: Db, id: number): Promise<boolean> {
  const found = await db.product.findFirst({ where: { id, active: true }, select: { id: true } });
  return found !== null;
}

/** The category and all its descendants, in one recursive query (ids are bound parameters). */
export async function categoryWithDescendants(db: Db, id: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    WITH RECURSIVE tree AS (
      SELECT id FROM categories WHERE id = ${id}
      UNION
      SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
    )
    SELECT id FROM tree`;
  return rows.map((r) => r.id);
}

const decimalOrUndefined = (value: number | undefined) =>
  value === undefined ? undefined : new Decimal(value);

/** Prisma passes `contains` to LIKE as is, so LIKE's wildcards are escaped to match literally. */
const likeLiteral = (term: string) => term.replace(/[\\%_]/g, '\\$&');
