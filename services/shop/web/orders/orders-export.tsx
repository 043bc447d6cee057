// The export of the list's filter (every page) as CSV, fetched with the token and saved through
// web-kit's `saveDownload`.
import { downloadName, ErrorAlert, saveDownload } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { outcome, type Api } from '../lib/api';
import { filterQuery, type OrderFilter } from './filter';

export function OrdersExport(props: { api: Api; filter: OrderFilter }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();

  async function download() {
    setBusy(true);
    setError(undefined);
    setStatus('Preparing the export …');
    const result = await outcome(
      props.api.GET('/admin/orders/export', {
        params: { query: { ...filterQuery(props.filter), format: 'csv' } },
        parseAs: 'blob',
      }),
    );
    setBusy(false);
    if ('message' in result) {
      setStatus('');
      setError(result.message);
      return;
    }
    const name = downloadName(
      result.response.headers.get('content-disposition'),
      `orders-${new Date().toISOString().slice(0, 10)}.csv`,
    );
    saveDownload(result.data, name);
    setStatus(`Export saved: ${name}`);
  }

  return (
    <div class="export">
      <button type="button" class="secondary" disabled={busy} onClick={() => void download()}>
        {busy ? 'Exporting …' : 'Export these orders (CSV)'}
      </button>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={error} />
    </div>
  );
}
