import type { Db, Tx } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { actorColumns, type Actor } from './actor.js';

export interface AuditChange {
  action: string;
  resource: string;
  resourceId: string | number;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) =>
  value === undefined || value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);

/** Records a back-office write; called inside the write's transaction, so both or neither stay. */
export async function insertAuditEntry(db: Db | Tx, actor: Actor, change: AuditChange) {
  await db.auditEntry.create({
    data: {
      ...actorColumns(actor),
      action: change.action,
      resource: change.resource,
      resourceId: String(change.resourceId),
      before: json(change.before),
      after: json(change.after),
    },
    select: { id: true },
  });
}

/**
 * Entries newest first (by id), of one kind of record and one record when given, before
 * `beforeId`: the (resource, resource_id, id) and (resource, id) indexes, or the primary key.
 */
export const findAuditEntries = (
  db: Db,
  filter: { resource?: string | undefined; resourceId?: string | undefined },
  page: { limit: number; beforeId?: bigint },
) =>
  db.auditEntry.findMany({
    where: {
      ...(filter.resource ? { resource: filter.resource } : {}),
      ...(filter.resourceId ? { resourceId: filter.resourceId } : {}),
      ...(page.beforeId ? { id: { lt: page.beforeId } } : {}),
    },
    orderBy: { id: 'desc' },
    take: page.limit,
  });
export type AuditEntryRecord = Awaited<ReturnType<typeof findAuditEntries>>[number];
