// CSV uploads as both services read them back from their exports: strict UTF-8, RFC 4180 records
// by fast-csv, comma or semicolon, and the export's formula guard taken off again.
import { Readable } from 'node:stream';
import { parse } from 'fast-csv';
import { HttpError } from './http-error.js';

/** Text handed to the parser at a time: fast-csv splits a whole piece into rows at once. */
const CSV_PIECE = 256 * 1024;

/** `;` when the header line has more semicolons than commas (the exports' two delimiters). */
export function csvDelimiter(text: string): ',' | ';' {
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  const count = (c: string) => first.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

const FORMULA_GUARDED = /^'[=+\-@\t\r]/;

/** The inverse of neutraliseFormula: the one apostrophe the export put before such a text. */
export const withoutFormulaGuard = (text: string) =>
  FORMULA_GUARDED.test(text) ? text.slice(1) : text;

/** The service's own words for a file it cannot read. */
export interface CsvReadMessages {
  notUtf8: string;
  unreadable: string;
}

/**
 * Reads `bytes` as CSV and hands each record to `onRecord` with its number in the file (from 1),
 * in order; `onRecord` may throw an HttpError (a row limit), which ends the reading with it.
 * A file that is not UTF-8 (a byte-order mark is dropped) or not CSV is a 400 in the caller's
 * words.
 */
export async function readCsvRecords(
  bytes: Buffer,
  messages: CsvReadMessages,
  onRecord: (record: number, cells: string[]) => void,
): Promise<void> {
  let text: string;
  try {
    // Strict: a file in another encoding is refused rather than read as garbled text.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new HttpError(400, messages.notUtf8);
  }
  const pieces = function* () {
    for (let at = 0; at < text.length; at += CSV_PIECE) yield text.slice(at, at + CSV_PIECE);
  };
  const parser = parse<string[], string[]>({
    headers: false,
    delimiter: csvDelimiter(text),
    ignoreEmpty: false,
  });
  let record = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      parser.destroy();
      reject(error instanceof HttpError ? error : new HttpError(400, messages.unreadable));
    };
    parser
      .on('data', (cells: string[]) => {
        record += 1;
        try {
          onRecord(record, cells);
        } catch (error) {
          fail(error);
        }
      })
      .on('error', fail)
      .on('end', resolve);
    Readable.from(pieces()).on('error', fail).pipe(parser);
  });
}
