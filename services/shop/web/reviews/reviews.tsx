// The reviews, newest first, hidden ones too: filtered by product and by shown or hidden (in the
// URL: `/app/reviews?product_id=12&hidden=true`, so Back and a link keep the filter), a page at a
// time. Staff and admins hide a review from the shop and restore it; the card changes at once. A
// viewer reads the same list without those buttons.
import { ErrorAlert, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { outcome } from '../lib/api';
import { formatCount } from '../lib/format';
import { LoadMore } from '../lib/load-more';
import { ProductFilter } from './product-filter';
import { ReviewCard, type Review } from './review-card';
import './reviews.css';

const LIST_PATH = '/app/reviews';
/** Reviews per page; "Load more" asks for the next ones. */
const PAGE_SIZE = 30;

type Visibility = '' | 'true' | 'false';

interface Filters {
  productId: number | undefined;
  hidden: Visibility;
}

function filtersOf(query: Record<string, string | undefined>): Filters {
  const id = Number(query.product_id);
  const { hidden } = query;
  return {
    productId: Number.isInteger(id) && id >= 1 && id <= 2_147_483_647 ? id : undefined,
    hidden: hidden === 'true' || hidden === 'false' ? hidden : '',
  };
}

const listUrl = ({ productId, hidden }: Filters) =>
  withQuery(LIST_PATH, { product_id: productId === undefined ? '' : String(productId), hidden });

export function Reviews({ session }: SectionProps) {
  const { api } = session;
  const here = useLocation();
  const filters = filtersOf(here.query);
  const { productId, hidden } = filters;
  const [notice, setNotice] = useState('');

  const page = (cursor?: string) =>
    outcome(
      api.GET('/admin/reviews', {
        params: {
          query: {
            ...(productId !== undefined && { product_id: productId }),
            ...(hidden !== '' && { hidden: hidden === 'true' }),
            limit: PAGE_SIZE,
            ...(cursor && { cursor }),
          },
        },
      }),
    );
  const list = useResource(() => page(), [productId, hidden], { keep: true });

  function filter(change: Partial<Filters>) {
    setNotice('');
    here.route(listUrl({ ...filters, ...change }));
  }

  // The changed review stays where it is (also under "Shown only"), marked, with the other button.
  function changed(review: Review) {
    list.mutate((shown) => ({
      ...shown,
      data: shown.data.map((r) => (r.id === review.id ? review : r)),
    }));
    setNotice(
      review.hidden
        ? `“${review.title}” is hidden: the shop no longer shows it.`
        : `“${review.title}” is restored: the shop shows it again.`,
    );
  }

  const reviews = list.data?.data ?? [];
  const next = list.data?.pagination.next_cursor;
  const moderate = canWrite(session) ? { api, onChanged: changed } : undefined;
  const status =
    list.loading === 'all'
      ? 'Loading the reviews …'
      : list.loading === 'more'
        ? 'Loading more …'
        : list.data
          ? `${countText(reviews.length, Boolean(next))}${notice ? ` ${notice}` : ''}`
          : '';

  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Reviews</h2>
      <form
        role="search"
        aria-label="Filter the reviews"
        class="toolbar"
        onSubmit={(event) => event.preventDefault()}
      >
        <ProductFilter
          api={api}
          productId={productId}
          onChoose={(id) => filter({ productId: id })}
        />
        <div>
          <label for="review-visibility">Shown or hidden</label>
          <select
            id="review-visibility"
            value={hidden}
            onChange={(event) => filter({ hidden: event.currentTarget.value as Visibility })}
          >
            <option value="">Shown and hidden</option>
            <option value="false">Shown in the shop</option>
            <option value="true">Hidden</option>
          </select>
        </div>
      </form>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={list.error} />
      {reviews.length > 0 && (
        <ol class="review-list" aria-label="Reviews, newest first">
          {reviews.map((review) => (
            <li key={review.id}>
              <ReviewCard review={review} moderate={moderate} />
            </li>
          ))}
        </ol>
      )}
      <LoadMore list={list} next={next} page={page} />
    </section>
  );
}

function countText(shown: number, more: boolean): string {
  if (shown === 0) return 'No review matches the filter.';
  const what = `${formatCount(shown)} ${shown === 1 ? 'review' : 'reviews'}`;
  return more ? `${what} shown; there are more.` : `${what}.`;
}
