// The CSV export, for tools and imports. Streams from the same cursor as the other formats
// (see export-json.ts); its columns are the field table's (fields.ts's EXPORT_COLUMNS).
import { pipeline, Readable, Transform } from 'node:stream';
import type { Handler } from '@dogshop/contracts/handler-directory';
import { format } from 'fast-csv';
import type { DirectoryDb } from '../../db/connection.js';
import type { Filter } from './repository.js';
import { CHUNK_CHARS, handlerViews } from './export-json.js';
import { EXPORT_COLUMNS, type CellKind, type CellValue } from './fields.js';

export type CsvDelimiter = 'comma' | 'semicolon';

// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text from users is neutralised with a leading single quote, which spreadsheets show as text.
 * Applied to free-text columns only: numbers and timestamps the service writes itself (a
 * negative longitude) stay as they are.
 */
export const neutraliseFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

const plain = (value: CellValue) => (value === undefined || value === null ? '' : String(value));

/** A cell of each kind as CSV text; missing values are empty. */
const CSV_CELL: Record<CellKind, (value: CellValue) => string> = {
  text: (value) => neutraliseFormula(plain(value)),
  id: plain,
  number: plain,
  boolean: plain,
  dateTime: plain,
};

const CELLS = EXPORT_COLUMNS.map((column) => ({
  read: column.value,
  write: CSV_CELL[column.kind],
}));

/** One CSV row, a cell per column of EXPORT_COLUMNS; text cells neutralised against formulas. */
function csvRow(handler: Handler): string[] {
  const row = new Array<string>(CELLS.length);
  for (let i = 0; i < CELLS.length; i += 1) {
    const cell = CELLS[i]!;
    row[i] = cell.write(cell.read(handler));
  }
  return row;
}

/** Every handler matching `filter`, by name, as CSV (see csvFile). */
export const exportCsv = (db: DirectoryDb, filter: Filter, delimiter: CsvDelimiter): Readable =>
  csvFile(handlerViews(db, filter), delimiter);

/**
 * Handlers as the API shows them, batch by batch, as RFC 4180 CSV written by fast-csv (CRLF rows,
 * fields with the delimiter, quotes or line breaks quoted, quotes doubled) with a UTF-8
 * byte-order mark so spreadsheets read umlauts correctly. Rows go to the formatter as arrays (no
 * per-row header lookup), and its one-row pieces leave in chunks of about CHUNK_CHARS.
 */
export function csvFile(
  batches: AsyncIterable<readonly Handler[]>,
  delimiter: CsvDelimiter,
): Readable {
  const csv = format<string[], string[]>({
    headers: EXPORT_COLUMNS.map((column) => column.header),
    alwaysWriteHeaders: true,
    delimiter: delimiter === 'semicolon' ? ';' : ',',
    rowDelimiter: '\r\n',
  });
  async function* rows(): AsyncGenerator<string[]> {
    for await (const handlers of batches) {
      for (const handler of handlers) yield csvRow(handler);
    }
  }
  const output = inChunks('\ufeff');
  // A failing cursor destroys the output stream, which aborts the response.
  pipeline(Readable.from(rows()), csv, output, () => {});
  return output;
}

/**
 * Collects the formatter's one-row pieces into writes of about CHUNK_CHARS. `first` (the UTF-8
 * byte-order mark) is written here rather than by fast-csv, which leaves it out when there are
 * no rows.
 */
function inChunks(first: string): Transform {
  let pending = first;
  return new Transform({
    transform(piece: Buffer | string, _encoding, done) {
      pending += piece.toString();
      if (pending.length < CHUNK_CHARS) return done();
      const chunk = pending;
      pending = '';
      done(null, chunk);
    },
    flush(done) {
      done(null, pending);
    },
  });
}
