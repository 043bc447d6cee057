// Every export format streams from one lean database cursor, a batch at a time, so memory stays
// flat however many handlers there are; the response starts before the last handler is read.
// XLSX: xlsx-export.ts.
import { pipeline, Readable, Transform } from 'node:stream';
import { EXPORT_CSV_COLUMNS } from '@dogshop/contracts/handler-directory';
import { format } from 'fast-csv';
import type { DirectoryDb } from '../db/connection.js';
import type { HandlerRecord } from '../db/handler-model.js';
import { neutraliseFormula } from '../domain/csv-cell.js';
import { BY_NAME, decodeRecords } from './handlers.js';
import { HANDLER_VIEW_FIELDS, toHandler } from './handler-view.js';

/** Output is handed on in pieces of about this size rather than one write per handler. */
const CHUNK_CHARS = 16 * 1024;
/**
 * Handlers per round trip: 100 round trips for 100,000 handlers rather than 200, while a batch
 * (its BSON and its records, a few hundred kB) is still all the export holds at once.
 */
export const EXPORT_BATCH_SIZE = 1_000;

/**
 * Every handler by name, a batch at a time, straight from the driver's cursor (raw, see
 * decodeRecords): iterating per document would cost a promise per handler, and Mongoose's
 * cursor adds its own work on top.
 */
export async function* handlerBatches(db: DirectoryDb): AsyncGenerator<HandlerRecord[]> {
  const cursor = db.handlerRecords.find(
    {},
    { sort: BY_NAME, projection: HANDLER_VIEW_FIELDS, batchSize: EXPORT_BATCH_SIZE, raw: true },
  );
  try {
    while (await cursor.hasNext()) {
      yield decodeRecords(cursor.readBufferedDocuments());
    }
  } finally {
    await cursor.close();
  }
}

/**
 * `{"success":true,"exportedAt":…,"data":[…],"count":N}`: the count is written after the data
 * it counts, so the two always agree (JSON key order carries no meaning).
 */
export function exportJson(db: DirectoryDb, exportedAt: Date): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let pending = `{"success":true,"exportedAt":${JSON.stringify(exportedAt.toISOString())},"data":[`;
    let count = 0;
    for await (const records of handlerBatches(db)) {
      for (const record of records) {
        pending += (count > 0 ? ',' : '') + JSON.stringify(toHandler(record));
        count += 1;
        if (pending.length >= CHUNK_CHARS) {
          yield pending;
          pending = '';
        }
      }
    }
    yield `${pending}],"count":${count}}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

export type CsvDelimiter = 'comma' | 'semicolon';

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
