import type {
  CreateReviewBody,
  ReviewListQuery,
  ReviewPage,
  ReviewSummary,
} from '@dogshop/contracts/shop';
import { conflict, unauthorized } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import type { SqlReads } from '../../db/sql-reads.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/prisma-errors.js';
import { reviewCreatedEvent } from '../events/builders.js';
import { insertEvents } from '../events/repository.js';
import { writeEvents } from '../events/service.js';
import { assertProductVisible, productNotFound } from '../products/service.js';
import { reviewToDto } from './mapper.js';
import { findReviewPage, insertReview } from './repository.js';

const RATINGS = [5, 4, 3, 2, 1] as const;

/**
 * One page of a product's reviews; the summary covers all its reviews, whatever the filter. One
 * statement reads the product's visibility, the page and the counts per rating.
 */
export async function listReviews(
  reads: SqlReads,
  productId: number,
  query: ReviewListQuery,
): Promise<ReviewPage> {
  const { page, limit } = query;
  const found = await findReviewPage(reads, productId, {
    rating: query.rating,
    sort: query.sort,
    skip: (page - 1) * limit,
    take: limit,
  });
  if (!found) throw productNotFound(productId);
  const summary = reviewSummary(found.countsByRating);
  // The summary's per-rating counts already give the number of matching reviews: no COUNT query.
  const total =
    query.rating === undefined
      ? summary.total_reviews
      : (summary.rating_distribution.find((d) => d.rating === query.rating)?.count ?? 0);
  return {
    reviews: found.reviews.map(reviewToDto),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
    summary,
  };
}

/** From the counts per rating, counted in the database, never by loading reviews. */
function reviewSummary(counts: Map<number, number>): ReviewSummary {
  const distribution = RATINGS.map((rating) => ({ rating, count: counts.get(rating) ?? 0 }));
  const total = distribution.reduce((sum, d) => sum + d.count, 0);
  const points = distribution.reduce((sum, d) => sum + d.rating * d.count, 0);
  return {
    // Integer sums keep the average exact up to the single division; halves round up.
    average_rating: total === 0 ? 0 : Math.round((points * 100) / total) / 100,
    total_reviews: total,
    rating_distribution: distribution,
  };
}

/**
 * Creates the customer's review of an active product. Title and comment arrive trimmed (the route
 * declares `normalize: { trim }`). The unique (product, customer) index is the only duplicate
 * check, so concurrent twins cannot both pass: the loser's insert fails with P2002 and becomes a
 * 409.
 */
export async function createReview(
  db: Db,
  productId: number,
  customerId: number,
  body: CreateReviewBody,
): Promise<{ review_id: number }> {
  await assertProductVisible(db, productId);
  try {
    // The review and its event commit together.
    const id = await writeEvents(db, async (tx) => {
      const review = reviewToDto(
        await insertReview(tx, {
          productId,
          customerId,
          rating: body.rating,
          title: body.title,
          comment: body.comment,
        }),
      );
      await insertEvents(tx, [reviewCreatedEvent(review)]);
      return review.id;
    });
    return { review_id: id };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`You have already reviewed product ${productId}`);
    }
    // A foreign key failed: the product or the customer was deleted after the checks above.
    if (isForeignKeyViolation(error)) {
      await assertProductVisible(db, productId);
      throw unauthorized('Invalid or expired token');
    }
    throw error;
  }
}
