// One review as staff moderate it: product, rating, title, comment, author, date, whether it is
// hidden, and (for staff and admins) Hide or Restore. Every text comes from a customer and is
// rendered as text.
import { ErrorAlert, useCall } from '@dogshop/web-kit';
import { customerPath, productPath } from '../app/paths';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatDateTime } from '../lib/format';

export type Review = Schemas['AdminReview'];

const STARS = 5;

export function ReviewCard(props: {
  review: Review;
  /** Absent for a viewer: no Hide or Restore. */
  moderate?: { api: Api; onChanged: (review: Review) => void };
}) {
  const { review, moderate } = props;
  const call = useCall();
  const titleId = `review-${review.id}-title`;
  const author =
    `${review.first_name} ${review.last_name}`.trim() || `Customer ${review.customer_id}`;

  async function toggle() {
    if (!moderate || call.busy) return;
    const changed = await call.run(
      outcome(
        moderate.api.PATCH('/admin/reviews/{id}', {
          params: { path: { id: review.id } },
          body: { hidden: !review.hidden },
        }),
      ),
    );
    if (changed) moderate.onChanged(changed.data);
  }

  return (
    <article class={review.hidden ? 'review review-hidden' : 'review'} aria-labelledby={titleId}>
      <p class="review-product">
        <a href={productPath(review.product_id)}>{review.product_name}</a>
        {review.hidden && <span class="review-badge">Hidden</span>}
      </p>
      <h3 id={titleId}>{review.title}</h3>
      <p class="review-rating">
        <span class="review-stars" aria-hidden="true">
          {'★'.repeat(review.rating)}
          {'☆'.repeat(STARS - review.rating)}
        </span>{' '}
        {review.rating} of {STARS} stars
      </p>
      <p class="review-comment">{review.comment}</p>
      <p class="review-meta">
        By <a href={customerPath(review.customer_id)}>{author}</a>, written{' '}
        <time dateTime={review.created_at}>{formatDateTime(review.created_at)}</time>
        {review.helpful_count > 0 && `; ${review.helpful_count} found it helpful`}
      </p>
      {moderate && (
        <div class="button-row">
          <button
            type="button"
            class="secondary"
            aria-describedby={titleId}
            aria-disabled={call.busy}
            onClick={() => void toggle()}
          >
            {call.busy
              ? review.hidden
                ? 'Restoring …'
                : 'Hiding …'
              : review.hidden
                ? 'Restore'
                : 'Hide'}
          </button>
        </div>
      )}
      <ErrorAlert text={call.error} />
    </article>
  );
}
