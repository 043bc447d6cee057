// One update statement against a collection (shared by `update` and `findAndModify`): find the
// target(s), apply the update to each, write back only the documents that actually changed, or
// insert a new document when nothing matched and `upsert` is set.
import type { Doc } from '../errors.js';
import type { Store } from '../storage/store.js';
import { applyUpdate, buildUpsertDocument, sameDocument } from './apply-update.js';
import { findIn } from './find.js';

export interface UpdateStatement {
  filter: Doc;
  update: unknown;
  multi: boolean;
  upsert: boolean;
  arrayFilters?: Doc[];
  sort?: Doc;
  collation?: Doc;
}

export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  /** First affected document before and after the update (for findAndModify). */
  before?: Doc;
  after?: Doc;
}

export function updateDocuments(
  store: Store,
  db: string,
  name: string,
  stmt: UpdateStatement,
): UpdateOutcome {
  const collection = store.collection(db, name);
  const matches = findIn(collection, {
    filter: stmt.filter,
    ...(stmt.sort ? { sort: stmt.sort } : {}),
    ...(stmt.collation ? { collation: stmt.collation } : {}),
    limit: stmt.multi ? 0 : 1,
  });

  if (matches.length === 0) {
    if (!stmt.upsert) return { matched: 0, modified: 0 };
    const doc = buildUpsertDocument(stmt.filter, stmt.update, stmt.arrayFilters);
    store.ensureCollection(db, name).collection.insert(doc);
    store.changed();
    return { matched: 0, modified: 0, upsertedId: doc._id, after: doc };
  }

  const outcome: UpdateOutcome = { matched: matches.length, modified: 0 };
  try {
    for (const old of matches) {
      const opts = {
        filter: stmt.filter,
        ...(stmt.arrayFilters ? { arrayFilters: stmt.arrayFilters } : {}),
      };
      const next = applyUpdate(old, stmt.update, opts);
      if (!sameDocument(old, next)) {
        collection!.replace(old, next);
        outcome.modified += 1;
      }
      outcome.before ??= old;
      outcome.after ??= next;
    }
  } finally {
    // A multi-update that fails halfway keeps the documents it already changed, as MongoDB does.
    if (outcome.modified > 0) store.changed();
  }
  return outcome;
}
