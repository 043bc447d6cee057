// The CSV export, for tools and imports (service-kit's csvStream, as the shop's exports). Its
// columns are the field table's (fields.ts's EXPORT_COLUMNS); it streams from the same cursor as
// the other formats (see export-json.ts) but writes each row straight from the stored record
// (each column through its field's `show`): building the API's Handler object first cost more
// than the row's cells (bench B7).
import type { Readable } from 'node:stream';
import { csvStream, neutraliseFormula, type CsvDelimiter } from '@dogshop/service-kit';
import type { DirectoryDb } from '../../db/connection.js';
import { handlerBatches, type Filter } from './repository.js';
import { EXPORT_COLUMNS, type CellKind, type CellValue, type StoredHandler } from './fields.js';

/** A cell of each kind as CSV text; missing values (undefined, null) are empty. */
const CSV_CELL: Record<CellKind, (value: CellValue) => string> = {
  text: (value) => (value === undefined || value === null ? '' : neutraliseFormula(String(value))),
  id: (value) => (value === undefined || value === null ? '' : String(value)),
  number: (value) => (value === undefined || value === null ? '' : String(value)),
  boolean: (value) => (value === undefined || value === null ? '' : value ? 'true' : 'false'),
  dateTime: (value) => (value === undefined || value === null ? '' : String(value)),
};

const CELLS = EXPORT_COLUMNS.map((column) => ({
  read: column.fromStored,
  write: CSV_CELL[column.kind],
}));

/** One CSV row, a cell per column of EXPORT_COLUMNS; text cells neutralised against formulas. */
function csvRow(record: StoredHandler): string[] {
  const row = new Array<string>(CELLS.length);
  for (let i = 0; i < CELLS.length; i += 1) {
    const cell = CELLS[i]!;
    row[i] = cell.write(cell.read(record));
  }
  return row;
}

/** Every handler matching `filter`, by name, as CSV (see csvFile). */
export const exportCsv = (db: DirectoryDb, filter: Filter, delimiter: CsvDelimiter): Readable =>
  csvFile(handlerBatches(db, filter), delimiter);

/** Stored handlers, batch by batch, as CSV: a row per handler, a cell per export column. */
export function csvFile(
  batches: AsyncIterable<readonly StoredHandler[]>,
  delimiter: CsvDelimiter,
): Readable {
  async function* rows(): AsyncGenerator<string[][]> {
    for await (const records of batches) yield records.map(csvRow);
  }
  return csvStream(
    EXPORT_COLUMNS.map((column) => column.header),
    rows(),
    delimiter,
  );
}
