// CSV downloads as both services write them: RFC 4180 by fast-csv, a UTF-8 byte-order mark, text
// from people neutralised against formula injection, streamed a batch of rows at a time.
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
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

/**
 * Batches of rows as RFC 4180 CSV written by fast-csv (CRLF rows, fields with the delimiter,
 * quotes or line breaks quoted, quotes doubled) under a header row, after a UTF-8 byte-order mark
 * so that spreadsheets read umlauts correctly (written here: fast-csv leaves it out when there
 * are no rows). Rows go to the formatter as arrays (no per-row header lookup), a whole batch at a
 * time, and leave as one chunk per batch: the next batch is read only when the response has
 * taken the last, so memory holds about one batch however many there are. Per row, an async step
 * and two stream hops cost more than the row's cells (bench B7). A failing source destroys the
 * stream, which aborts the response.
 */
export function csvStream(
  headers: string[],
  batches: AsyncIterable<readonly string[][]>,
  delimiter: CsvDelimiter,
): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    const csv = format<string[], string[]>({
      headers,
      alwaysWriteHeaders: true,
      delimiter: delimiter === 'semicolon' ? ';' : ',',
      rowDelimiter: '\r\n',
    });
    // fast-csv hands on one Buffer per row as it is written; they are joined once per batch.
    let pieces: Buffer[] = [BYTE_ORDER_MARK];
    let size = BYTE_ORDER_MARK.length;
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
      for await (const rows of batches) {
        for (const row of rows) csv.write(row);
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

const BYTE_ORDER_MARK = Buffer.from('\ufeff', 'utf8');
