// The export of what the list shows (its search and filters, every page) as CSV, the file the
// import takes back. Fetched with the session's token (a plain link could not carry it: the
// token lives in the page's memory only), then handed to the browser's download.
import { ErrorAlert } from '@dogshop/web-kit';
import type { Api } from '../lib/api';
import type { operations } from '../lib/generated/shop';
import { useExport } from '../lib/use-export';

type ListQuery = NonNullable<operations['listAdminProducts']['parameters']['query']>;

/** The list's filters, as the list and its export take them. */
export type ProductFilter = Omit<ListQuery, 'limit' | 'cursor' | 'sort'>;
export type ProductSort = NonNullable<ListQuery['sort']>;

export function ExportButton(props: { api: Api; filter: ProductFilter }) {
  const { busy, status, error, download } = useExport();
  const save = () =>
    download(
      () =>
        props.api.GET('/admin/products/export', {
          params: { query: { ...props.filter, format: 'csv' } },
          parseAs: 'blob',
        }),
      (day) => `products-${day}.csv`,
    );

  return (
    <div class="export">
      <button
        type="button"
        class="secondary"
        aria-disabled={busy}
        aria-describedby="export-status"
        onClick={() => void save()}
      >
        {busy ? 'Exporting …' : 'Export CSV'}
      </button>
      <p class="status" role="status" id="export-status">
        {status}
      </p>
      <ErrorAlert text={error} />
    </div>
  );
}
