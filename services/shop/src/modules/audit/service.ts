import type { AuditEntry, AuditListQuery } from '@dogshop/contracts/shop';
import { badRequest } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { toAuditEntry } from './mapper.js';
import { findAuditEntries } from './repository.js';

/** An audit cursor: the last entry's id (entries are numbered as they are written). */
const encodeCursor = (id: bigint) =>
  Buffer.from(JSON.stringify(['audit', id.toString()])).toString('base64url');

function decodeCursor(cursor: string): bigint {
  try {
    const [list, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (list === 'audit' && typeof id === 'string' && /^[1-9]\d{0,17}$/.test(id)) return BigInt(id);
  } catch {
    // not JSON: refused below
  }
  throw badRequest('querystring.cursor is not a cursor this list gave');
}

/**
 * A page of the audit, newest first (by entry number), narrowed to a kind of record and to one
 * record; `id` alone names nothing (400).
 */
export async function listAuditEntries(
  db: Db,
  query: AuditListQuery,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  if (query.id !== undefined && query.resource === undefined) {
    throw badRequest('querystring.id needs querystring.resource');
  }
  const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await findAuditEntries(
    db,
    { resource: query.resource, resourceId: query.id },
    { limit: query.limit + 1, ...(beforeId === undefined ? {} : { beforeId }) },
  );
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    entries: shown.map(toAuditEntry),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : null,
  };
}
