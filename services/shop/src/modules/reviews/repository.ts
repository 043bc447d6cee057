import type { ReviewListQuery } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';

/** Reviews are shown with the reviewer's names, which come from the customer record. */
export const reviewWithAuthor = {
  include: { customer: { select: { firstName: true, lastName: true } } },
} satisfies Prisma.Product$reviewsArgs;

export type ReviewRow = Prisma.ReviewGetPayload<typeof reviewWithAuthor>;

// Every order ends in id so that reviews created in the same millisecond still page
// deterministically.
const ORDER_BY: Record<ReviewListQuery['sort'], Prisma.ReviewOrderByWithRelationInput[]> = {
  newest: [{ createdAt: 'desc' }, { id: 'desc' }],
  oldest: [{ createdAt: 'asc' }, { id: 'asc' }],
  rating: [{ rating: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }],
};

/**
 * One page of an active product's reviews, fetched with the product (one query joining both), so
 * a hidden or unknown product (null) costs no extra round trip to find out.
 */
export async function findReviewPage(
  db: Db,
  productId: number,
  page: { rating?: number; sort: ReviewListQuery['sort']; skip: number; take: number },
): Promise<ReviewRow[] | null> {
  const product = await db.product.findFirst({
    where: { id: productId, active: true },
    select: {
      reviews: {
        ...(page.rating !== undefined && { where: { rating: page.rating } }),
        ...reviewWithAuthor,
        orderBy: ORDER_BY[page.sort],
        skip: page.skip,
        take: page.take,
      },
    },
  });
  return product?.reviews ?? null;
}

/** Review counts per rating, counted in the database (one GROUP BY over the product's index). */
export async function countReviewsByRating(
  db: Db,
  productId: number,
): Promise<Map<number, number>> {
  const groups = await db.review.groupBy({
    by: ['rating'],
    where: { productId },
    _count: { _all: true },
  });
  return new Map(groups.map((g) => [g.rating, g._count._all]));
}

export async function insertReview(
  db: Db,
  review: { productId: number; customerId: number; rating: number; title: string; comment: string },
): Promise<number> {
  const row = await db.review.create({ data: review, select: { id: true } });
  return row.id;
}
