import type {
  Product,
  ProductDetail,
  ProductListQuery,
  ProductListResponse,
} from '@dogshop/contracts/shop';
import { badRequest, notFound } from '@dogshop/service-kit';
import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { Decimal, toMoneyNumber } from '../domain/money.js';
import { reviewToDto, reviewWithAuthor } from './review-dto.js';

const MAX_SEARCH_TERMS = 10;

const productWithCategory = {
  category: { select: { name: true } },
} satisfies Prisma.ProductInclude;

type ProductRow = Prisma.ProductGetPayload<{ include: typeof productWithCategory }>;

export function productToDto(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: toMoneyNumber(row.price),
    category_id: row.categoryId,
    category_name: row.category.name,
    stock: row.stock,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

const ORDER_BY: Record<
  NonNullable<ProductListQuery['sort']>,
  Prisma.ProductOrderByWithRelationInput[]
> = {
  newest: [{ createdAt: 'desc' }, { id: 'desc' }],
  price_asc: [{ price: 'asc' }, { id: 'asc' }],
  price_desc: [{ price: 'desc' }, { id: 'desc' }],
  name: [{ name: 'asc' }, { id: 'asc' }],
};

export async function listProducts(db: Db, query: ProductListQuery): Promise<ProductListResponse> {
  if (
    query.min_price !== undefined &&
    query.max_price !== undefined &&
    query.min_price > query.max_price
  ) {
    throw badRequest('querystring.min_price must be less than or equal to max_price');
  }
  const where: Prisma.ProductWhereInput = {
    active: true,
    ...(query.category !== undefined && {
      categoryId: { in: await categoryWithDescendants(db, query.category) },
    }),
    // As Decimals, like the column: Prisma turns those into bound parameters and reuses its
    // compiled query plan, while plain numbers stay literals in a plan compiled for each price.
    ...((query.min_price !== undefined || query.max_price !== undefined) && {
      price: { gte: decimalOrUndefined(query.min_price), lte: decimalOrUndefined(query.max_price) },
    }),
    AND: searchTerms(query.search).map((term) => ({
      OR: [
        { name: { contains: term, mode: 'insensitive' } },
        { description: { contains: term, mode: 'insensitive' } },
      ],
    })),
  };
  const { page, limit } = query;
  const [total, rows] = await Promise.all([
    db.product.count({ where }),
    db.product.findMany({
      where,
      include: productWithCategory,
      orderBy: ORDER_BY[query.sort ?? 'newest'],
      skip: (page - 1) * limit,
      take: limit,
    }),
  ]);
  return {
    success: true,
    data: rows.map(productToDto),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

export async function getProduct(db: Db, id: number): Promise<ProductDetail> {
  const row = await db.product.findFirst({
    where: { id, active: true },
    include: {
      ...productWithCategory,
      reviews: { ...reviewWithAuthor, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 10 },
    },
  });
  if (!row) throw productNotFound(id);
  return { ...productToDto(row), reviews: row.reviews.map(reviewToDto) };
}

const decimalOrUndefined = (value: number | undefined) =>
  value === undefined ? undefined : new Decimal(value);

export const productNotFound = (id: number) => notFound(`Product ${id} not found`);

/** 404 unless the product exists and is active. */
export async function assertProductVisible(db: Db, id: number): Promise<void> {
  const found = await db.product.findFirst({ where: { id, active: true }, select: { id: true } });
  if (!found) throw productNotFound(id);
}

/**
 * Whitespace-separated terms; every one must match (the search is an AND of terms). Prisma passes
 * `contains` to LIKE as is, so LIKE's wildcards are escaped to search for them literally.
 */
function searchTerms(search: string | undefined): string[] {
  return (search ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_TERMS)
    .map((term) => term.replace(/[\\%_]/g, '\\$&'));
}

/** The category and all its descendants, in one recursive query (ids are bound parameters). */
async function categoryWithDescendants(db: Db, id: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    WITH RECURSIVE tree AS (
      SELECT id FROM categories WHERE id = ${id}
      UNION
      SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
    )
    SELECT id FROM tree`;
  return rows.map((r) => r.id);
}
