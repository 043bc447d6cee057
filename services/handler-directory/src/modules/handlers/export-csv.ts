// The CSV export, for tools and imports. Streams from the same cursor as the other formats
// (see export-json.ts); its columns are the field table's (fields.ts's EXPORT_COLUMNS).
import type { Readable } from 'node:stream';
import type { Handler } from '@dogshop/contracts/handler-directory';
import { csvStream, neutraliseFormula, type CsvDelimiter } from '@dogshop/service-kit';
import type { DirectoryDb } from '../../db/connection.js';
import type { Filter } from './repository.js';
import { handlerViews } from './export-json.js';
import { EXPORT_COLUMNS, type CellKind, type CellValue } from './fields.js';

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

/** Handlers as the API shows them, batch by batch, as CSV (service-kit's csvStream). */
export function csvFile(
  batches: AsyncIterable<readonly Handler[]>,
  delimiter: CsvDelimiter,
): Readable {
  async function* rows(): AsyncGenerator<string[]> {
    for await (const handlers of batches) {
      for (const handler of handlers) yield csvRow(handler);
    }
  }
  return csvStream(
    EXPORT_COLUMNS.map((column) => column.header),
    rows(),
    delimiter,
  );
}
