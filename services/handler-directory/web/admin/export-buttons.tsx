// The export of what the list shows (its search and filters, all pages): CSV, XLSX or JSON. The
// file is fetched with the bearer token (a plain link could not carry it: the token lives in the
// page's memory only), then saved through an object URL and `<a download>`.
import { useState } from 'preact/hooks';
import { outcome, type Api } from '../lib/api';
import { ErrorAlert } from '@dogshop/web-kit';

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

/** The file name the directory gives (`handlers-2026-03-20.csv`), else one of ours. */
function fileName(disposition: string | null, format: ExportFormat): string {
  const given = disposition?.match(/filename="?([^";]+)"?/)?.[1];
  if (given && !/[\\/]/.test(given)) return given;
  return `hundefuehrer-${new Date().toISOString().slice(0, 10)}.${format}`;
}

/** Hands a file to the browser's download. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

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
    const name = fileName(result.response.headers.get('content-disposition'), format);
    save(result.data, name);
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
