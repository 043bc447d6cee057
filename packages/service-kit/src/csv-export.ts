// CSV downloads as both services write them: RFC 4180 by fast-csv, a UTF-8 byte-order mark, text
// from people neutralised against formula injection, streamed in chunks.
import { pipeline, Readable, Transform } from 'node:stream';
import { format } from 'fast-csv';

export type CsvDelimiter = 'comma' | 'semicolon';

// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text from users is neutralised with a leading single quote, which spreadsheets show as text.
 * For free-text cells only: numbers and timestamps the service writes itself (a negative
 * longitude) stay as they are.
 */
export const neutraliseFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** Output is handed on in pieces of about this size rather than one write per row. */
export const CSV_CHUNK_CHARS = 16 * 1024;

/**
 * `rows` as RFC 4180 CSV written by fast-csv (CRLF rows, fields with the delimiter, quotes or
 * line breaks quoted, quotes doubled) under a header row, with a UTF-8 byte-order mark so that
 * spreadsheets read umlauts correctly. Rows go to the formatter as arrays (no per-row header
 * lookup), and its one-row pieces leave in chunks of about CSV_CHUNK_CHARS. A failing source
 * destroys the output stream, which aborts the response.
 */
export function csvStream(
  headers: string[],
  rows: AsyncIterable<string[]>,
  delimiter: CsvDelimiter,
): Readable {
  const csv = format<string[], string[]>({
    headers,
    alwaysWriteHeaders: true,
    delimiter: delimiter === 'semicolon' ? ';' : ',',
    rowDelimiter: '\r\n',
  });
  const output = inChunks('\ufeff');
  pipeline(Readable.from(rows), csv, output, () => {});
  return output;
}

/**
 * Collects the formatter's one-row pieces into writes of about CSV_CHUNK_CHARS. `first` (the
 * byte-order mark) is written here rather than by fast-csv, which leaves it out when there are
 * no rows.
 */
function inChunks(first: string): Transform {
  let pending = first;
  return new Transform({
    transform(piece: Buffer | string, _encoding, done) {
      pending += piece.toString();
      if (pending.length < CSV_CHUNK_CHARS) return done();
      const chunk = pending;
      pending = '';
      done(null, chunk);
    },
    flush(done) {
      done(null, pending);
    },
  });
}
