// Both export formats stream from one lean database cursor, a batch at a time, so memory stays
// flat however many handlers there are; the response starts before the last handler is read.
import { Readable } from 'node:stream';
import { EXPORT_CSV_COLUMNS, type Handler } from '@dogshop/contracts/handler-directory';
import type { DirectoryDb } from '../db/connection.js';
import type { HandlerRecord } from '../db/handler-model.js';
import { neutraliseFormula } from '../domain/csv-cell.js';
import { BY_NAME, CURSOR_BATCH_SIZE } from './handlers.js';
import { toHandler } from './handler-view.js';

/** Output is handed on in pieces of about this size rather than one write per handler. */
const CHUNK_CHARS = 16 * 1024;

async function* handlerRecords(db: DirectoryDb): AsyncGenerator<HandlerRecord> {
  const cursor = db.handlers
    .find({})
    .sort(BY_NAME)
    .lean<HandlerRecord[]>()
    .cursor({ batchSize: CURSOR_BATCH_SIZE });
  try {
    yield* cursor as AsyncIterable<HandlerRecord>;
  } finally {
    await cursor.close();
  }
}

async function* allHandlers(db: DirectoryDb): AsyncGenerator<Handler> {
  for await (const record of handlerRecords(db)) yield toHandler(record);
}

/**
 * `{"success":true,"exportedAt":…,"data":[…],"count":N}`: the count is written after the data
 * it counts, so the two always agree (JSON key order carries no meaning).
 */
export function exportJson(db: DirectoryDb, exportedAt: Date): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let pending = `{"success":true,"exportedAt":${JSON.stringify(exportedAt.toISOString())},"data":[`;
    let count = 0;
    for await (const handler of allHandlers(db)) {
      pending += (count > 0 ? ',' : '') + JSON.stringify(handler);
      count += 1;
      if (pending.length >= CHUNK_CHARS) {
        yield pending;
        pending = '';
      }
    }
    yield `${pending}],"count":${count}}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

export type CsvDelimiter = 'comma' | 'semicolon';

/**
 * RFC 4180 CSV (CRLF between rows, none after the last; fields with the delimiter, quotes, line
 * breaks or `|` quoted, quotes doubled, NUL characters dropped: the rules of fast-csv, which wrote
 * this export before) with a UTF-8 byte-order mark so spreadsheets read umlauts correctly. Rows
 * are written straight from the cursor's documents into chunks of about CHUNK_CHARS: one string
 * per row and no stream stage per row, which keeps the export fast and its memory flat.
 */
export function exportCsv(db: DirectoryDb, delimiter: CsvDelimiter): Readable {
  const separator = delimiter === 'semicolon' ? ';' : ',';
  const needsQuotes = separator === ';' ? /[;\r\n|]/ : /[,\r\n|]/;
  const field = (value: string): string => {
    const text = value.includes('\0') ? value.replaceAll('\0', '') : value;
    if (text.includes('"')) return `"${text.replaceAll('"', '""')}"`;
    return needsQuotes.test(text) ? `"${text}"` : text;
  };
  const text = (value: string | undefined) => field(neutraliseFormula(value ?? ''));
  const row = (record: HandlerRecord): string =>
    [
      record._id.toHexString(),
      text(record.name),
      text(record.address),
      text(record.phone),
      text(record.type),
      String(record.available),
      record.gps ? field(String(record.gps.lat)) : '',
      record.gps ? field(String(record.gps.lng)) : '',
      record.createdAt.toISOString(),
      record.updatedAt.toISOString(),
    ].join(separator);

  async function* chunks(): AsyncGenerator<string> {
    let pending = `\ufeff${EXPORT_CSV_COLUMNS.map(field).join(separator)}`;
    for await (const record of handlerRecords(db)) {
      pending += `\r\n${row(record)}`;
      if (pending.length >= CHUNK_CHARS) {
        yield pending;
        pending = '';
      }
    }
    yield pending;
  }
  // A failing cursor destroys the stream, which aborts the response.
  return Readable.from(chunks(), { objectMode: false });
}
