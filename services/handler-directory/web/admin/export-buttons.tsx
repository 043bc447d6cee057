// The export of what the list shows (its search and filters, all pages): CSV, XLSX or JSON,
// fetched with the token and saved through web-kit's `useDownload`.
import { ErrorAlert, useDownload, type DownloadTexts } from '@dogshop/web-kit';
import { outcome, type Api } from '../lib/api';

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

const TEXTS: DownloadTexts = {
  preparing: 'Export wird erstellt …',
  saved: (name) => `Export gespeichert: ${name}`,
};

export function ExportButtons(props: { api: Api; filter: ListFilter }) {
  const { busy, status, error, download } = useDownload(TEXTS);
  const save = (format: ExportFormat) =>
    download(
      () =>
        outcome(
          props.api.GET('/api/users/export', {
            params: { query: { ...props.filter, format } },
            parseAs: 'blob',
          }),
        ),
      (day) => `hundefuehrer-${day}.${format}`,
    );

  return (
    <section class="export" aria-labelledby="export-titel">
      <h2 id="export-titel">Export der gefilterten Liste</h2>
      <div class="button-row">
        {FORMATS.map(({ format, name }) => (
          <button
            key={format}
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => void save(format)}
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
