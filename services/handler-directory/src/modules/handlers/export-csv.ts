// The CSV export, for tools and imports. Streams from the same cursor as the other formats
// (see export-json.ts).
import { pipeline, Readable, Transform } from 'node:stream';
import { EXPORT_CSV_COLUMNS } from '@dogshop/contracts/handler-directory';
import { format } from 'fast-csv';
import type { DirectoryDb } from '../../db/connection.js';
import type { HandlerRecord } from '../../db/handler-model.js';
import { CHUNK_CHARS } from './export-json.js';
import { handlerBatches } from './repository.js';

export type CsvDelimiter = 'comma' | 'semicolon';

// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text from users is neutralised with a leading single quote, which spreadsheets show as text.
 * Applied to free-text columns only: numbers and timestamps the service writes itself (a
 * negative longitude) stay as they are.
 */
export const neutraliseFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** One CSV row, in the order of EXPORT_CSV_COLUMNS; text cells neutralised against formulas. */
function csvRow(record: HandlerRecord): string[] {
  return [
    record._id.toHexString(),
    neutraliseFormula(record.name),
    neutraliseFormula(record.address ?? ''),
    neutraliseFormula(record.phone),
    neutraliseFormula(record.type ?? ''),
    String(record.available),
    record.gps ? String(record.gps.lat) : '',
    record.gps ? String(record.gps.lng) : '',
    record.createdAt.toISOString(),
    record.updatedAt.toISOString(),
  ];
}

/**
 * RFC 4180 CSV written by fast-csv (CRLF rows, fields with the delimiter, quotes or line breaks
 * quoted, quotes doubled) with a UTF-8 byte-order mark so spreadsheets read umlauts correctly.
 * Rows go to the formatter as arrays (no per-row header lookup), and its one-row pieces leave
 * in chunks of about CHUNK_CHARS.
 */
export function exportCsv(db: DirectoryDb, delimiter: CsvDelimiter): Readable {
  const csv = format<string[], string[]>({
    headers: [...EXPORT_CSV_COLUMNS],
    alwaysWriteHeaders: true,
    delimiter: delimiter === 'semicolon' ? ';' : ',',
    rowDelimiter: '\r\n',
  });
  async function* rows(): AsyncGenerator<string[]> {
    for await (const records of handlerBatches(db)) {
      for (const record of records) yield csvRow(record);
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
