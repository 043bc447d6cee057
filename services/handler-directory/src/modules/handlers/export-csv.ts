// The CSV export, for tools and imports: RFC 4180 by fast-csv, the same options and byte-order
// mark as service-kit's csvStream (which the shop's exports use), and its columns are the field
// table's (fields.ts's EXPORT_COLUMNS). It streams from the same cursor as the other formats (see
// export-json.ts) but writes each row straight from the stored record (each column through its
// field's `show`) and hands fast-csv a whole batch at a time: per row, the Handler object, an
// async step and two stream hops (with a UTF-8 decode and re-encode) cost more than the row's
// cells, and held the export below the driver's own speed (bench B7).
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { neutraliseFormula, type CsvDelimiter } from '@dogshop/service-kit';
import { format } from 'fast-csv';
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

const BOM = Buffer.from('\ufeff', 'utf8');

/** Every handler matching `filter`, by name, as CSV (see csvFile). */
export const exportCsv = (db: DirectoryDb, filter: Filter, delimiter: CsvDelimiter): Readable =>
  csvFile(handlerBatches(db, filter), delimiter);

/**
 * Stored handlers, batch by batch, as CSV: a header row, CRLF rows, fields with the delimiter,
 * quotes or line breaks quoted (fast-csv), after a UTF-8 byte-order mark (written here: fast-csv
 * leaves it out when there are no rows). One chunk per batch: the next batch is read only when
 * the response has taken the last, so memory holds about one batch however many there are. A
 * failing source destroys the stream, which aborts the response.
 */
export function csvFile(
  batches: AsyncIterable<readonly StoredHandler[]>,
  delimiter: CsvDelimiter,
): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    const csv = format<string[], string[]>({
      headers: EXPORT_COLUMNS.map((column) => column.header),
      alwaysWriteHeaders: true,
      delimiter: delimiter === 'semicolon' ? ';' : ',',
      rowDelimiter: '\r\n',
    });
    // fast-csv hands on one Buffer per row as it is written; they are joined once per batch.
    let pieces: Buffer[] = [BOM];
    let size = BOM.length;
    csv.on('data', (piece: Buffer) => {
      pieces.push(piece);
      size += piece.length;
    });
    const done = finished(csv);
    done.catch(() => {}); // awaited below; an early close (the client left) is no failure
    const take = () => {
      const chunk = Buffer.concat(pieces, size);
      pieces = [];
      size = 0;
      return chunk;
    };
    try {
      for await (const records of batches) {
        for (const record of records) csv.write(csvRow(record));
        if (size > 0) yield take();
      }
      csv.end();
      await done;
      if (size > 0) yield take();
    } finally {
      csv.destroy();
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
