// The export of the list's filter (every page) as CSV, fetched with the token and saved through
// web-kit's `useDownload` (the shop's words: lib/use-export.ts).
import { ErrorAlert } from '@dogshop/web-kit';
import type { Api } from '../lib/api';
import { useExport } from '../lib/use-export';
import { filterQuery, type OrderFilter } from './filter';

export function OrdersExport(props: { api: Api; filter: OrderFilter }) {
  const { busy, status, error, download } = useExport();
  const save = () =>
    download(
      () =>
        props.api.GET('/admin/orders/export', {
          params: { query: { ...filterQuery(props.filter), format: 'csv' } },
          parseAs: 'blob',
        }),
      (day) => `orders-${day}.csv`,
    );

  return (
    <div class="export">
      <button type="button" class="secondary" disabled={busy} onClick={() => void save()}>
        {busy ? 'Exporting …' : 'Export these orders (CSV)'}
      </button>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={error} />
    </div>
  );
}
