// Both export formats stream from one lean database cursor, a batch at a time, so memory stays
// flat however many handlers there are; the response starts before the last handler is read.
import { pipeline, Readable, Transform } from 'node:stream';
import { EXPORT_CSV_COLUMNS, type Handler } from '@dogshop/contracts/handler-directory';
import { format } from 'fast-csv';
import type { DirectoryDb } from '../db/connection.js';
import type { HandlerRecord } from '../db/handler-model.js';
import { neutraliseFormula } from '../domain/csv-cell.js';
import { BY_NAME, CURSOR_BATCH_SIZE } from './handlers.js';
import { toHandler } from './handler-view.js';

/** Output is handed on in pieces of about this size rather than one write per handler. */
const CHUNK_CHARS = 16 * 1024;

async function* allHandlers(db: DirectoryDb): AsyncGenerator<Handler> {
  const cursor = db.handlers
    .find({})
    .sort(BY_NAME)
    .lean<HandlerRecord[]>()
    .cursor({ batchSize: CURSOR_BATCH_SIZE });
  try {
    for await (const record of cursor as AsyncIterable<HandlerRecord>) yield toHandler(record);
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

type CsvRow = Record<(typeof EXPORT_CSV_COLUMNS)[number], string>;

function toCsvRow(handler: Handler): CsvRow {
  return {
    id: handler._id,
    name: neutraliseFormula(handler.name),
    address: neutraliseFormula(handler.address ?? ''),
    phone: neutraliseFormula(handler.phone),
    type: neutraliseFormula(handler.type ?? ''),
    available: String(handler.available),
    lat: handler.gps ? String(handler.gps.lat) : '',
    lng: handler.gps ? String(handler.gps.lng) : '',
    createdAt: handler.createdAt,
    updatedAt: handler.updatedAt,
  };
}

/**
 * RFC 4180 CSV (CRLF rows, fields with the delimiter, quotes or line breaks quoted, quotes
 * doubled) with a UTF-8 byte-order mark so spreadsheets read umlauts correctly.
 */
export function exportCsv(db: DirectoryDb, delimiter: CsvDelimiter): Readable {
  const csv = format<CsvRow, CsvRow>({
    headers: [...EXPORT_CSV_COLUMNS],
    alwaysWriteHeaders: true,
    delimiter: delimiter === 'semicolon' ? ';' : ',',
    rowDelimiter: '\r\n',
  });
  async function* rows(): AsyncGenerator<CsvRow> {
    for await (const handler of allHandlers(db)) yield toCsvRow(handler);
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
