import type { AuditEntry } from '@dogshop/contracts/shop';
import type { Actor } from './actor.js';
import type { AuditEntryRecord } from './repository.js';

/** A stored snapshot as the API shows it: an object, or null. */
const snapshot = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

export const toAuditEntry = (entry: AuditEntryRecord): AuditEntry => ({
  id: Number(entry.id),
  at: entry.at.toISOString(),
  actor: { type: entry.actorType as Actor['type'], id: entry.actorId, name: entry.actorName },
  action: entry.action,
  resource: entry.resource,
  resource_id: entry.resourceId,
  before: snapshot(entry.before),
  after: snapshot(entry.after),
});
