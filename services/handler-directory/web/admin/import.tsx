// The import (admin): a file as the export wrote it (CSV or XLSX) is checked first (a dry run:
// what each row would do, every problem with its row and column), and applied only when the
// check found no problem ("Übernehmen": all rows in one transaction, or none).
import type { ComponentChildren, RefObject, TargetedEvent, TargetedSubmitEvent } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { outcome, type Schemas } from '../lib/api';
import { ErrorAlert } from '@dogshop/web-kit';
import type { Session } from '../lib/session';
import './admin-tools.css';

type Report = Schemas['ImportReport'] | Schemas['ImportRefused'];
type RowAction = Schemas['ImportRow']['action'];

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows listed in the table; a file may have 50,000, and the counts tell the rest. */
const ROWS_SHOWN = 500;

const ACTION_NAMES: Record<RowAction, string> = {
  create: 'neu',
  update: 'geändert',
  unchanged: 'unverändert',
  invalid: 'fehlerhaft',
};

/**
 * The media type the API reads the file as: by its extension first (Windows calls a CSV file
 * `application/vnd.ms-excel`), else as the browser names it; the API answers 415 for any other.
 */
function mediaType(file: File): string {
  if (/\.csv$/i.test(file.name)) return CSV;
  if (/\.xlsx$/i.test(file.name)) return XLSX;
  return file.type || 'application/octet-stream';
}

export function ImportPanel({ session }: { session: Session }) {
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
    if (!file) {
      setError('Bitte zuerst eine Datei wählen.');
      return;
    }
    setBusy(dryRun ? 'check' : 'apply');
    setError(undefined);
    const result = await outcome(
      session.api.POST('/api/users/import', {
        params: { query: { dryRun } },
        // The file itself, as the document's requestBody says (text/csv or XLSX), with its type.
        body: file,
        bodySerializer: (body) => body,
        headers: { 'content-type': mediaType(file) },
      }),
    );
    setBusy(undefined);
    if ('message' in result && result.offline) {
      setError(result.message);
      return;
    }
    if ('data' in result) {
      setReport(result.data);
    } else {
      // 422: applied with problems, nothing written; the report says which rows.
      const refused = result.error;
      setReport(
        typeof refused === 'object' && refused !== null && 'problems' in refused
          ? refused
          : undefined,
      );
      setError(result.message);
    }
    requestAnimationFrame(() => resultHeading.current?.focus());
  }

  function check(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(true);
  }

  const canApply = report?.dryRun === true && report.problems.length === 0;
  return (
    <section aria-labelledby="import" class="admin-tool">
      <h2 id="import">Import</h2>
      <p class="lead">
        Eine Datei mit den Spalten des Exports (CSV oder XLSX). Sie wird erst geprüft; übernommen
        wird sie nur ohne Probleme, dann alle Zeilen auf einmal.
      </p>
      <form class="panel narrow" onSubmit={check}>
        <label for="import-datei">Datei (CSV oder XLSX)</label>
        <input
          id="import-datei"
          type="file"
          accept={`.csv,.xlsx,${CSV},${XLSX}`}
          onChange={choose}
        />
        <button type="submit" class="wide" disabled={busy !== undefined}>
          {busy === 'check' ? 'Wird geprüft …' : 'Prüfen'}
        </button>
      </form>
      <p class="status" role="status">
        {busy === 'check' && 'Die Datei wird geprüft …'}
        {busy === 'apply' && 'Die Datei wird übernommen …'}
        {!busy && report && summaryText(report)}
      </p>
      <ErrorAlert text={error} />
      {report && (
        <ReportView report={report} headingRef={resultHeading}>
          {canApply && (
            <button type="button" disabled={busy !== undefined} onClick={() => void send(false)}>
              {busy === 'apply' ? 'Wird übernommen …' : 'Übernehmen'}
            </button>
          )}
        </ReportView>
      )}
    </section>
  );
}

/** The live region's sentence about a report. */
function summaryText({ dryRun, applied, summary, problems }: Report): string {
  const counts = `${summary.create} neu, ${summary.update} geändert, ${summary.unchanged} unverändert`;
  if (applied) return `Übernommen: ${counts}.`;
  if (!dryRun) return '';
  if (problems.length > 0) {
    return `Geprüft: ${problems.length} ${problems.length === 1 ? 'Problem' : 'Probleme'}; so kann die Datei nicht übernommen werden.`;
  }
  return `Geprüft: ${counts}, keine Probleme.`;
}

function ReportView(props: {
  report: Report;
  headingRef: RefObject<HTMLHeadingElement | null>;
  children: ComponentChildren;
}) {
  const { report } = props;
  const title = report.applied
    ? 'Ergebnis des Imports'
    : report.dryRun
      ? 'Vorschau des Imports'
      : 'Import nicht übernommen';
  const { summary } = report;
  return (
    <section aria-labelledby="import-bericht" class="import-report">
      <h3 id="import-bericht" tabIndex={-1} ref={props.headingRef}>
        {title}
      </h3>
      <dl class="counts">
        <Count name="neu" value={summary.create} />
        <Count name="geändert" value={summary.update} />
        <Count name="unverändert" value={summary.unchanged} />
        <Count name="Probleme" value={report.problems.length} />
      </dl>
      {props.children}
      {report.problems.length > 0 && (
        <table class="data-table">
          <caption>Probleme</caption>
          <thead>
            <tr>
              <th scope="col">Zeile</th>
              <th scope="col">Spalte</th>
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
      )}
      <table class="data-table">
        <caption>Zeilen der Datei</caption>
        <thead>
          <tr>
            <th scope="col">Zeile</th>
            <th scope="col">Aktion</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.slice(0, ROWS_SHOWN).map((row) => (
            <tr key={row.row}>
              <td>{row.row}</td>
              <td>{ACTION_NAMES[row.action]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.rows.length > ROWS_SHOWN && (
        <p class="hint">
          Die ersten {ROWS_SHOWN} von {report.rows.length} Zeilen; die Zahlen oben zählen alle.
        </p>
      )}
    </section>
  );
}

function Count({ name, value }: { name: string; value: number }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}
