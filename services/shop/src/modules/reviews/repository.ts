import type { ReviewListQuery } from '@dogshop/contracts/shop';
import type { Tx } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { Prisma } from '../../generated/prisma/client.js';

/** A review as shown: the reviewer's names come from the customer record. */
export interface ReviewRow {
  id: number;
  productId: number;
  customerId: number;
  rating: number;
  title: string;
  comment: string;
  firstName: string;
  lastName: string;
  helpfulCount: number;
  createdAt: Date;
}

/** A review as the statements below send it: JSON has no dates, so `createdAt` is milliseconds since the epoch (the column's precision). */
export type ReviewJson = Omit<ReviewRow, 'createdAt'> & { createdAt: number };

export interface ReviewPageSpec {
  rating?: number;
  sort: ReviewListQuery['sort'];
  skip: number;
  take: number;
}

// Every order ends in id so that reviews created in the same millisecond still page
// deterministically. Each is served by an index on (product_id, …) in that order. The page
// subquery and the aggregate over it both call their rows `r`, so one text serves both.
const ORDER_BY: Record<ReviewListQuery['sort'], Prisma.Sql> = {
  newest: Prisma.sql`r.created_at DESC, r.id DESC`,
  oldest: Prisma.sql`r.created_at ASC, r.id ASC`,
  rating: Prisma.sql`r.rating DESC, r.created_at DESC, r.id DESC`,
};

/**
 * A scalar subquery: one page of the visible reviews (not hidden by staff) of the product whose
 * id is `productId` (an outer column), as a JSON array in page order. `NOT r.hidden` is the
 * predicate of the partial indexes it reads (migration `*_review_moderation`). The reviewers are
 * joined after the LIMIT, to the page only. The time is sent as epoch milliseconds (the column's
 * precision), whatever the session's time zone. (Not as `to_char(…'HH24:MI:SS…')`: pgbench,
 * which replays this SQL in the benchmark, would take `:MI` in a literal for one of its
 * variables.)
 */
export function reviewPageJson(productId: Prisma.Sql, page: ReviewPageSpec): Prisma.Sql {
  const orderBy = ORDER_BY[page.sort];
  return Prisma.sql`(
    SELECT coalesce(json_agg(json_build_object(
             'id', r.id, 'productId', r.product_id, 'customerId', r.customer_id,
             'rating', r.rating, 'title', r.title, 'comment', r.comment,
             'firstName', cu.first_name, 'lastName', cu.last_name,
             'helpfulCount', r.helpful_count,
             'createdAt', (extract(epoch FROM r.created_at) * 1000)::int8
           ) ORDER BY ${orderBy}), '[]'::json)
      FROM (SELECT r.id, r.product_id, r.customer_id, r.rating, r.title, r.comment,
                   r.helpful_count, r.created_at
              FROM reviews r
             WHERE r.product_id = ${productId} AND NOT r.hidden
                   ${page.rating === undefined ? Prisma.empty : Prisma.sql`AND r.rating = ${page.rating}`}
             ORDER BY ${orderBy}
             LIMIT ${page.take} OFFSET ${page.skip}) r
      JOIN customers cu ON cu.id = r.customer_id
  )`;
}

/** The JSON array of `reviewPageJson` as review rows. */
export const reviewRows = (reviews: ReviewJson[]): ReviewRow[] =>
  reviews.map((review) => ({ ...review, createdAt: new Date(review.createdAt) }));

/**
 * One page of an active product's visible reviews and their counts per rating (all its visible
 * reviews, whatever the filter; hidden ones are in neither): one statement, one round trip, one
 * snapshot, so the summary is exact whatever is written meanwhile. Null when the product is
 * unknown or inactive (no row).
 */
export async function findReviewPage(
  reads: SqlReads,
  productId: number,
  page: ReviewPageSpec,
): Promise<{ reviews: ReviewRow[]; countsByRating: Map<number, number> } | null> {
  const [row] = await reads.rows<{ counts: Record<string, number>; reviews: ReviewJson[] }>(
    Prisma.sql`
    SELECT (SELECT coalesce(json_object_agg(g.rating, g.n), '{}'::json)
              FROM (SELECT rating, count(*) AS n FROM reviews
                     WHERE product_id = p.id AND NOT hidden
                     GROUP BY rating) g) AS counts,
           ${reviewPageJson(Prisma.sql`p.id`, page)} AS reviews
      FROM products p
     WHERE p.id = ${productId} AND p.active`,
  );
  if (!row) return null;
  return {
    reviews: reviewRows(row.reviews),
    countsByRating: new Map(Object.entries(row.counts).map(([rating, n]) => [Number(rating), n])),
  };
}

/** Inserts the review; returns it as shown, the reviewer's names included. */
export async function insertReview(
  tx: Tx,
  review: { productId: number; customerId: number; rating: number; title: string; comment: string },
): Promise<ReviewRow> {
  const { customer, ...row } = await tx.review.create({
    data: review,
    select: {
      id: true,
      productId: true,
      customerId: true,
      rating: true,
      title: true,
      comment: true,
      helpfulCount: true,
      createdAt: true,
      customer: { select: { firstName: true, lastName: true } },
    },
  });
  return { ...row, ...customer };
}
