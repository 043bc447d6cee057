// The export of what the list shows (its search and filters, every page) as CSV, the file the
// import takes back. Fetched with the session's token (a plain link could not carry it: the
// token lives in the page's memory only), then handed to the browser's download.
import { downloadName, ErrorAlert, saveDownload } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { outcome, type Api } from '../lib/api';
import type { operations } from '../lib/generated/shop';

type ListQuery = NonNullable<operations['listAdminProducts']['parameters']['query']>;

/** The list's filters, as the list and its export take them. */
export type ProductFilter = Omit<ListQuery, 'limit' | 'cursor' | 'sort'>;
export type ProductSort = NonNullable<ListQuery['sort']>;

export function ExportButton(props: { api: Api; filter: ProductFilter }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();

  async function download() {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setStatus('Preparing the export …');
    const result = await outcome(
      props.api.GET('/admin/products/export', {
        params: { query: { ...props.filter, format: 'csv' } },
        parseAs: 'blob',
      }),
    );
    setBusy(false);
    if ('message' in result) {
      setStatus('');
      setError(result.message);
      return;
    }
    const fallback = `products-${new Date().toISOString().slice(0, 10)}.csv`;
    const name = downloadName(result.response.headers.get('content-disposition'), fallback);
    saveDownload(result.data, name);
    setStatus(`Export saved: ${name}`);
  }

  return (
    <div class="export">
      <button
        type="button"
        class="secondary"
        aria-disabled={busy}
        aria-describedby="export-status"
        onClick={() => void download()}
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
