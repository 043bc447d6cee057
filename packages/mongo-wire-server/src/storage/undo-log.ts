// What a transaction changed, one entry per change, so that an abort can put everything back in
// reverse order (and a read outside the transaction can see the committed state: undo, read,
// redo). Entries keep the stored documents themselves (documents are never mutated in place, see
// collection.ts), so recording costs no copies.
import type { Doc } from '../errors.js';
import type { Collection } from './collection.js';
import type { IndexSpec } from './unique-index.js';

/** `ordinal`: the document's place in storage (natural) order, to put it back there. */
export type UndoEntry =
  | { kind: 'insert'; collection: Collection; doc: Doc; ordinal: number }
  | { kind: 'replace'; collection: Collection; before: Doc; after: Doc }
  | { kind: 'remove'; collection: Collection; doc: Doc; ordinal: number }
  | { kind: 'createIndex'; collection: Collection; spec: IndexSpec }
  | { kind: 'createCollection'; collection: Collection };

/** Shared by a store and its collections: while `entries` is set, every change is appended. */
export interface Journal {
  entries: UndoEntry[] | undefined;
}
