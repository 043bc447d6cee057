// The "Load more" button under a list paged by cursor: it loads the page after `next` and adds
// its rows to those shown; gone once there is no further page.
import type { Outcome, Resource } from '@dogshop/web-kit';

export function LoadMore<P extends { data: unknown[] }>(props: {
  list: Resource<P>;
  /** The cursor of the next page; none: the list is complete. */
  next: string | null | undefined;
  page: (cursor: string) => Promise<Outcome<P>>;
}) {
  const { list, next } = props;
  if (!next) return null;
  return (
    <button
      type="button"
      class="secondary wide"
      // aria-disabled, not disabled: the focus stays on the button while the page loads.
      aria-disabled={list.loading !== undefined}
      onClick={() =>
        list.loading === undefined &&
        list.more(
          () => props.page(next),
          (shown, more) => ({ ...more, data: [...shown.data, ...more.data] }),
        )
      }
    >
      {list.loading === 'more' ? 'Loading …' : 'Load more'}
    </button>
  );
}
