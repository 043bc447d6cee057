import type { AdminReview, AdminReviewListQuery } from '@dogshop/contracts/shop';
import { notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { createdKeyset } from '../../domain/keyset.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { toAdminReview } from './mapper.js';
import { findReviewForUpdate, findReviewPage, setReviewHidden } from './repository.js';

const cursor = createdKeyset('reviews');

/** A page of reviews of every product, hidden ones too, newest first, and the next cursor. */
export async function listAdminReviews(
  db: Db,
  query: AdminReviewListQuery,
): Promise<{ reviews: AdminReview[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  const rows = await findReviewPage(
    db,
    { productId: query.product_id, hidden: query.hidden },
    query.limit + 1,
    after,
  );
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    reviews: shown.map(toAdminReview),
    nextCursor:
      rows.length > query.limit && last
        ? cursor.encode({ createdAt: last.created_at, id: last.id })
        : null,
  };
}

/**
 * Hides a review or shows it again, with its audit entry, in one transaction; the review is
 * locked, so concurrent changes are recorded one after the other with exact before and after.
 * The state it already has changes nothing and leaves no entry. The public list and summary read
 * `hidden` in their own statement, so they follow at the next read; there is no kept aggregate.
 */
export function moderateReview(
  db: Db,
  actor: Actor,
  id: number,
  hidden: boolean,
): Promise<AdminReview> {
  return db.$transaction(async (tx) => {
    const review = await findReviewForUpdate(tx, id);
    if (!review) throw notFound(`Review ${id} not found`);
    if (review.hidden === hidden) return toAdminReview(review);
    await setReviewHidden(tx, id, hidden);
    await insertAuditEntry(tx, actor, {
      action: 'review.moderate',
      resource: 'review',
      resourceId: id,
      before: { hidden: review.hidden },
      after: { hidden },
    });
    return toAdminReview({ ...review, hidden });
  });
}
