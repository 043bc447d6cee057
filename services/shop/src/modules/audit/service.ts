import type { AuditEntry, AuditListQuery } from '@dogshop/contracts/shop';
import { badRequest } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { idKeyset } from '../../domain/keyset.js';
import { toAuditEntry } from './mapper.js';
import { findAuditEntries } from './repository.js';

/** An audit cursor: the last entry's id (entries are numbered as they are written). */
const cursor = idKeyset('audit');

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
  const beforeId = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  const rows = await findAuditEntries(
    db,
    { resource: query.resource, resourceId: query.id },
    { limit: query.limit + 1, ...(beforeId === undefined ? {} : { beforeId }) },
  );
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    entries: shown.map(toAuditEntry),
    nextCursor: rows.length > query.limit && last ? cursor.encode(last.id) : null,
  };
}
