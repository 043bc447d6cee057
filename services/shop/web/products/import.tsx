// The products' import (`/app/products/import`): a CSV file as the export writes it is checked
// first (a dry run: what each row would do and which fields it changes, every problem with its
// row and column), and applied only when the check found no problem (all rows in one
// transaction, or none). A viewer may not import: the page says so and offers nothing.
import { ErrorAlert } from '@dogshop/web-kit';
import type { ComponentChildren, RefObject, TargetedEvent, TargetedSubmitEvent } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { productPath } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { formatCount } from '../lib/format';
import { lastListUrl } from './links';
import './products.css';

type Report = Schemas['ProductImportReport'];
type Row = Schemas['ProductImportRow'];

/** Rows listed in the table; a file may have 50,000, and the counts tell the rest. */
const ROWS_SHOWN = 500;

const ACTION_NAMES: Record<Row['action'], string> = {
  create: 'New',
  update: 'Changed',
  unchanged: 'Unchanged',
  invalid: 'Has problems',
};

const FIELD_NAMES: Record<Row['changes'][number], string> = {
  name: 'name',
  description: 'description',
  price: 'price',
  category_id: 'category',
  stock: 'stock',
  active: 'active',
};

/** What the API sends: a 422 of an applied file with problems carries its report too. */
function reportOf(error: unknown): Report | undefined {
  const body = error as { data?: Report } | undefined;
  return body && typeof body === 'object' && body.data && 'problems' in body.data
    ? body.data
    : undefined;
}

export function ProductImport({ session }: SectionProps) {
  const back = (
    <p>
      <a href={lastListUrl()}>Back to the products</a>
    </p>
  );
  if (!canWrite(session)) {
    return (
      <section aria-labelledby="page-heading">
        {back}
        <h2 id="page-heading">Import products</h2>
        <p>Your account reads the products; importing changes them, so it is not offered.</p>
      </section>
    );
  }
  return <ImportPanel session={session} back={back} />;
}

function ImportPanel({
  session,
  back,
}: Pick<SectionProps, 'session'> & { back: ComponentChildren }) {
  const [file, setFile] = useState<File | undefined>();
  const [report, setReport] = useState<Report | undefined>();
  const [busy, setBusy] = useState<'check' | 'apply' | undefined>();
  const [error, setError] = useState<string | undefined>();
  const resultHeading = useRef<HTMLHeadingElement>(null);

  function choose(event: TargetedEvent<HTMLInputElement>) {
    setFile(event.currentTarget.files?.[0]);
    setReport(undefined);
    setError(undefined);
  }

  async function send(dryRun: boolean) {
    if (busy) return;
    if (!file) {
      setError('Choose a CSV file first.');
      return;
    }
    setBusy(dryRun ? 'check' : 'apply');
    setError(undefined);
    const result = await outcome(
      session.api.POST('/admin/products/import', {
        params: { query: { dry_run: dryRun } },
        // The file itself is the body (text/csv, whatever the browser calls the file's type).
        body: file,
        bodySerializer: (body: unknown) => body as Blob,
        headers: { 'content-type': 'text/csv' },
      }),
    );
    setBusy(undefined);
    if ('data' in result) {
      setReport(result.data.data);
    } else {
      // 422: applied with problems, nothing written; the report says which rows.
      setReport(reportOf(result.error));
      setError(result.message);
    }
    requestAnimationFrame(() => resultHeading.current?.focus());
  }

  function check(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(true);
  }

  const canApply = report?.dry_run === true && report.problems.length === 0;
  return (
    <section aria-labelledby="page-heading" class="product-import">
      {back}
      <h2 id="page-heading">Import products</h2>
      <p class="lead">
        A CSV file with the export’s columns (id, name, description, price, category_id,
        category_name, stock, active). A row with an id changes that product, a row without one adds
        a product. The file is checked first; it is applied only without problems, then all rows at
        once.
      </p>
      <form class="panel narrow" onSubmit={check}>
        <label for="import-file">CSV file</label>
        <input id="import-file" type="file" accept=".csv,text/csv" onChange={choose} />
        <button type="submit" class="wide" aria-disabled={busy !== undefined}>
          {busy === 'check' ? 'Checking …' : 'Check the file'}
        </button>
      </form>
      <p class="status" role="status">
        {busy === 'check' && 'Checking the file …'}
        {busy === 'apply' && 'Applying the file …'}
        {!busy && report && summaryText(report)}
      </p>
      <ErrorAlert text={error} />
      {report && (
        <ReportView report={report} headingRef={resultHeading}>
          {canApply && (
            <div class="button-row">
              <button
                type="button"
                aria-disabled={busy !== undefined}
                onClick={() => void send(false)}
              >
                {busy === 'apply' ? 'Applying …' : 'Apply the import'}
              </button>
            </div>
          )}
        </ReportView>
      )}
    </section>
  );
}

const countsText = ({ summary }: Report) =>
  `${formatCount(summary.create)} new, ${formatCount(summary.update)} changed, ${formatCount(summary.unchanged)} unchanged`;

/** The live region's sentence about a report. */
function summaryText(report: Report): string {
  const { problems } = report;
  if (report.applied) return `Imported: ${countsText(report)}.`;
  if (problems.length > 0) {
    const count = `${formatCount(problems.length)} ${problems.length === 1 ? 'problem' : 'problems'}`;
    return report.dry_run
      ? `Checked: ${count}. The file cannot be applied like this; correct it and check it again.`
      : `Not applied: ${count}. Nothing was changed.`;
  }
  return `Checked: ${countsText(report)}, no problems.`;
}

function ReportView(props: {
  report: Report;
  headingRef: RefObject<HTMLHeadingElement | null>;
  children: ComponentChildren;
}) {
  const { report } = props;
  const title = report.applied
    ? 'Result of the import'
    : report.dry_run
      ? 'Preview of the import'
      : 'Import not applied';
  const { summary } = report;
  return (
    <section aria-labelledby="import-report" class="import-report">
      <h3 id="import-report" tabIndex={-1} ref={props.headingRef}>
        {title}
      </h3>
      <dl class="counts">
        <Count name="New" value={summary.create} />
        <Count name="Changed" value={summary.update} />
        <Count name="Unchanged" value={summary.unchanged} />
        <Count name="Problems" value={report.problems.length} />
      </dl>
      {props.children}
      {report.problems.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Problems</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {report.problems.map((problem, index) => (
                <tr key={index}>
                  <td>{problem.row}</td>
                  <td>{problem.column}</td>
                  <td>{problem.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="table-wrap">
        <table>
          <caption>Rows of the file</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Action</th>
              <th scope="col">Product</th>
              <th scope="col">Changed fields</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.slice(0, ROWS_SHOWN).map((row) => (
              <tr key={row.row}>
                <td>{row.row}</td>
                <td>{ACTION_NAMES[row.action]}</td>
                <td>
                  {row.id === null ? '—' : <a href={productPath(row.id)}>Product {row.id}</a>}
                </td>
                <td>{row.changes.map((field) => FIELD_NAMES[field]).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.rows.length > ROWS_SHOWN && (
        <p class="hint">
          The first {formatCount(ROWS_SHOWN)} of {formatCount(report.rows.length)} rows; the counts
          above count them all.
        </p>
      )}
    </section>
  );
}

function Count({ name, value }: { name: string; value: number }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}
