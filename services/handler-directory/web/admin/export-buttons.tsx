// The export of what the list shows (its search and filters, all pages): CSV, XLSX or JSON,
// fetched with the token and saved through web-kit's `saveDownload`.
import { useState } from 'preact/hooks';
import { outcome, type Api } from '../lib/api';
import { downloadName, ErrorAlert, saveDownload } from '@dogshop/web-kit';

export type ExportFormat = 'csv' | 'xlsx' | 'json';

export interface ListFilter {
  q?: string;
  available?: boolean;
  type?: string;
}

const FORMATS: { format: ExportFormat; name: string }[] = [
  { format: 'csv', name: 'CSV' },
  { format: 'xlsx', name: 'XLSX (Excel)' },
  { format: 'json', name: 'JSON' },
];

export function ExportButtons(props: { api: Api; filter: ListFilter }) {
  const [busy, setBusy] = useState<ExportFormat | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();

  async function download(format: ExportFormat) {
    setBusy(format);
    setError(undefined);
    setStatus('Export wird erstellt …');
    const result = await outcome(
      props.api.GET('/api/users/export', {
        params: { query: { ...props.filter, format } },
        parseAs: 'blob',
      }),
    );
    setBusy(undefined);
    if ('message' in result) {
      setStatus('');
      setError(result.message);
      return;
    }
    const name = downloadName(
      result.response.headers.get('content-disposition'),
      `hundefuehrer-${new Date().toISOString().slice(0, 10)}.${format}`,
    );
    saveDownload(result.data, name);
    setStatus(`Export gespeichert: ${name}`);
  }

  return (
    <section class="export" aria-labelledby="export-titel">
      <h2 id="export-titel">Export der gefilterten Liste</h2>
      <div class="button-row">
        {FORMATS.map(({ format, name }) => (
          <button
            key={format}
            type="button"
            class="secondary"
            disabled={busy !== undefined}
            onClick={() => void download(format)}
          >
            {name}
          </button>
        ))}
      </div>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={error} />
    </section>
  );
}
