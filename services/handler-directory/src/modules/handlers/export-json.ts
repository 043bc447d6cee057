// Every export format streams from one lean database cursor, a batch at a time (repository.ts's
// handlerBatches), so memory stays flat however many handlers there are; the response starts
// before the last handler is read. CSV: export-csv.ts, XLSX: export-xlsx.ts.
import { Readable } from 'node:stream';
import type { DirectoryDb } from '../../db/connection.js';
import { toHandler } from './mapper.js';
import { handlerBatches } from './repository.js';

/** Output is handed on in pieces of about this size rather than one write per handler. */
export const CHUNK_CHARS = 16 * 1024;

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
