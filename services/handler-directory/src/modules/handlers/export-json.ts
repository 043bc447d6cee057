// Every export format streams from one lean database cursor, a batch at a time (repository.ts's
// handlerBatches), so memory stays flat however many handlers there are; the response starts
// before the last handler is read. Each format writes the handlers as the API shows them
// (mapper.ts), so they all agree with the JSON. CSV: export-csv.ts, XLSX: export-xlsx.ts.
import { Readable } from 'node:stream';
import type { Handler } from '@dogshop/contracts/handler-directory';
import type { DirectoryDb } from '../../db/connection.js';
import { toHandler } from './mapper.js';
import { handlerBatches, type Filter } from './repository.js';

/** Output is handed on in pieces of about this size rather than one write per handler. */
export const CHUNK_CHARS = 16 * 1024;

/**
 * Every handler matching `filter`, by name, as the API shows it, a batch at a time (closing early
 * closes the cursor).
 */
export async function* handlerViews(
  db: DirectoryDb,
  filter: Filter = {},
): AsyncGenerator<Handler[]> {
  for await (const records of handlerBatches(db, filter)) yield records.map(toHandler);
}

/**
 * `{"success":true,"exportedAt":…,"data":[…],"count":N}`: the count is written after the data
 * it counts, so the two always agree (JSON key order carries no meaning).
 */
export function exportJson(db: DirectoryDb, filter: Filter, exportedAt: Date): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let pending = `{"success":true,"exportedAt":${JSON.stringify(exportedAt.toISOString())},"data":[`;
    let count = 0;
    for await (const handlers of handlerViews(db, filter)) {
      for (const handler of handlers) {
        pending += (count > 0 ? ',' : '') + JSON.stringify(handler);
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
