// One collection: documents in insertion order (MongoDB's natural order for a fresh collection),
// keyed by canonical _id, plus index definitions. Stored documents are never mutated in place —
// updates replace them — so cursors can hold references to a consistent snapshot cheaply. The map
// by canonical _id is the collection's _id index: `withIds` reads documents through it (a find,
// update or delete whose filter names its documents by _id, see query/find.ts's findIn), and
// every change and every undo of a transaction keeps it, so it never needs rebuilding.
import { UUID } from 'bson';
import { CommandError, type Doc } from '../errors.js';
import { canonicalKey } from './keys.js';
import type { Journal, UndoEntry } from './undo-log.js';
import { duplicateKeyError, ID_INDEX, UniqueIndex, type IndexSpec } from './unique-index.js';

/** Options that make two indexes on the same key different (MongoDB compares these). */
function optionsKey(spec: IndexSpec): string {
  const rest = Object.entries(spec)
    .filter(([k]) => !['v', 'key', 'name', 'background', 'ns'].includes(k))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return canonicalKey(Object.fromEntries(rest));
}

function distinguishingKey(spec: IndexSpec): string {
  return canonicalKey([spec.partialFilterExpression, spec.collation]);
}

export class Collection {
  /** The documents by canonical _id, in natural order (unless `disordered`, see `ordinals`). */
  private readonly docs = new Map<string, Doc>();
  /**
   * Each document's place in natural order, increasing with every insert. A document a
   * transaction's abort puts back goes to the end of `docs` with its old ordinal, which marks the
   * map `disordered`; the next read sorts it once (rather than every put-back costing a pass
   * over the whole map).
   */
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 0;
  /** At least the highest ordinal in `docs`: an append below it may break the order. */
  private highestOrdinal = -1;
  private disordered = false;
  private readonly indexes: IndexSpec[] = [ID_INDEX];
  private readonly uniques = new Map<string, UniqueIndex>();
  /**
   * Read views of the current contents, dropped on every change: the documents in storage order,
   * and in the order of each index key a find has sorted by. Never mutated once built, so open
   * cursors can keep them.
   */
  private snapshot: readonly Doc[] | undefined;
  private readonly sortedViews = new Map<string, readonly Doc[]>();
  /** Set by the store that holds this collection; records changes made inside a transaction. */
  journal: Journal | undefined;

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Doc = {},
    readonly uuid: UUID = new UUID(),
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  get count(): number {
    return this.docs.size;
  }

  /** The documents in storage order: shared, so callers must not modify the array. */
  all(): readonly Doc[] {
    if (this.disordered) this.restoreOrder();
    return (this.snapshot ??= Array.from(this.docs.values()));
  }

  /**
   * The stored documents with these `_id`s (each once, in the order first named; ids that match
   * none are skipped), found by canonical key like mongod's _id index finds them: equal as BSON
   * values, so 1, 1.0 and NumberLong(1) are one id.
   */
  withIds(ids: readonly unknown[]): Doc[] {
    const found = new Map<string, Doc>();
    for (const id of ids) {
      const key = canonicalKey(id);
      const doc = this.docs.get(key);
      if (doc && !found.has(key)) found.set(key, doc);
    }
    return Array.from(found.values());
  }

  /** Puts `docs` back in natural order (ordinal order) after documents were put back. */
  private restoreOrder(): void {
    const entries = Array.from(this.docs).sort(
      ([a], [b]) => this.ordinals.get(a)! - this.ordinals.get(b)!,
    );
    this.docs.clear();
    for (const [key, doc] of entries) this.docs.set(key, doc);
    this.disordered = false;
    this.highestOrdinal = entries.length > 0 ? this.ordinals.get(entries.at(-1)![0])! : -1;
  }

  /** Adds a document at the end of `docs` with its ordinal (a new one, or the one it had). */
  private append(idKey: string, doc: Doc, ordinal: number): void {
    this.docs.set(idKey, doc);
    this.ordinals.set(idKey, ordinal);
    if (ordinal < this.highestOrdinal) this.disordered = true;
    else this.highestOrdinal = ordinal;
  }

  private detach(idKey: string): void {
    const ordinal = this.ordinals.get(idKey);
    this.docs.delete(idKey);
    this.ordinals.delete(idKey);
    // Ordinals are distinct integers: without the highest, the rest are below it. (So undoing
    // a transaction's inserts and making them again, as a read outside it does, needs no sort.)
    if (ordinal === this.highestOrdinal) this.highestOrdinal = ordinal - 1;
  }

  /**
   * The documents in `sort` order when an index has exactly that key pattern, like mongod walking
   * the index instead of sorting in memory. Built with `sortAll` on first use after a change, so
   * repeated sorted reads of an unchanged collection don't sort again; other sorts get undefined
   * (only indexed orders are kept, which bounds the memory).
   */
  sortedBy(sort: Doc, sortAll: (docs: readonly Doc[]) => Doc[]): readonly Doc[] | undefined {
    const key = canonicalKey(sort);
    const cached = this.sortedViews.get(key);
    if (cached) return cached;
    const directions = Object.values(sort);
    if (!directions.every((d) => d === 1 || d === -1)) return undefined;
    if (!this.indexes.some((index) => canonicalKey(index.key) === key)) return undefined;
    const view = sortAll(this.all());
    this.sortedViews.set(key, view);
    return view;
  }

  private changed(): void {
    this.snapshot = undefined;
    this.sortedViews.clear();
  }

  indexSpecs(): IndexSpec[] {
    return this.indexes.map((spec) => ({ ...spec }));
  }

  /** `doc` must already carry its `_id`. Throws E11000 without changing anything on conflict. */
  insert(doc: Doc): void {
    const idKey = canonicalKey(doc._id);
    if (this.docs.has(idKey)) throw duplicateKeyError(this.ns, ID_INDEX, { _id: doc._id });
    for (const index of this.uniques.values()) index.check(doc, idKey);
    for (const index of this.uniques.values()) index.add(doc, idKey);
    const ordinal = this.nextOrdinal++;
    this.append(idKey, doc, ordinal);
    this.changed();
    this.journal?.entries?.push({ kind: 'insert', collection: this, doc, ordinal });
  }

  /** Swaps a stored document for its updated version (same `_id`), keeping its position. */
  replace(oldDoc: Doc, newDoc: Doc): void {
    const idKey = canonicalKey(oldDoc._id);
    for (const index of this.uniques.values()) index.check(newDoc, idKey);
    for (const index of this.uniques.values()) {
      index.remove(oldDoc, idKey);
      index.add(newDoc, idKey);
    }
    this.docs.set(idKey, newDoc);
    this.changed();
    this.journal?.entries?.push({
      kind: 'replace',
      collection: this,
      before: oldDoc,
      after: newDoc,
    });
  }

  remove(doc: Doc): void {
    const idKey = canonicalKey(doc._id);
    // Inside a transaction the ordinal lets an abort put the document back in its place.
    const ordinal = this.ordinals.get(idKey)!;
    this.journal?.entries?.push({ kind: 'remove', collection: this, doc, ordinal });
    for (const index of this.uniques.values()) index.remove(doc, idKey);
    this.detach(idKey);
    this.changed();
  }

  /**
   * Takes back one change of a transaction. Entries are undone newest first, so the collection is
   * exactly as it was right after the change: no checks are needed, and none run.
   */
  undo(entry: UndoEntry): void {
    switch (entry.kind) {
      case 'insert':
        this.rawRemove(entry.doc);
        break;
      case 'replace':
        this.rawReplace(entry.after, entry.before);
        break;
      case 'remove': {
        const idKey = canonicalKey(entry.doc._id);
        for (const index of this.uniques.values()) index.add(entry.doc, idKey);
        this.append(idKey, entry.doc, entry.ordinal);
        break;
      }
      case 'createIndex': {
        const at = this.indexes.findIndex((i) => i.name === entry.spec.name);
        if (at !== -1) this.indexes.splice(at, 1);
        this.uniques.delete(entry.spec.name);
        break;
      }
      case 'createCollection':
        return; // the store's business
    }
    this.changed();
  }

  /** Makes an undone change again (oldest first), onto the state it was first made on. */
  redo(entry: UndoEntry): void {
    switch (entry.kind) {
      case 'insert': {
        const idKey = canonicalKey(entry.doc._id);
        for (const index of this.uniques.values()) index.add(entry.doc, idKey);
        this.append(idKey, entry.doc, entry.ordinal);
        break;
      }
      case 'replace':
        this.rawReplace(entry.before, entry.after);
        break;
      case 'remove':
        this.rawRemove(entry.doc);
        break;
      case 'createIndex':
        this.addIndex(entry.spec);
        break;
      case 'createCollection':
        return;
    }
    this.changed();
  }

  private rawReplace(from: Doc, to: Doc): void {
    const idKey = canonicalKey(from._id);
    for (const index of this.uniques.values()) {
      index.remove(from, idKey);
      index.add(to, idKey);
    }
    this.docs.set(idKey, to);
  }

  private rawRemove(doc: Doc): void {
    const idKey = canonicalKey(doc._id);
    for (const index of this.uniques.values()) index.remove(doc, idKey);
    this.detach(idKey);
  }

  /** Returns false when an identical index already exists (MongoDB treats that as a no-op). */
  createIndex(spec: IndexSpec): boolean {
    const sameName = this.indexes.find((i) => i.name === spec.name);
    const sameKey = this.indexes.find((i) => canonicalKey(i.key) === canonicalKey(spec.key));
    if (sameName) {
      if (canonicalKey(sameName.key) === canonicalKey(spec.key)) {
        if (optionsKey(sameName) === optionsKey(spec)) return false;
        throw new CommandError(
          86,
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index but different options. ` +
            `Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
        );
      }
      throw new CommandError(
        86,
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. Requested index: ` +
          `${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
      );
    }
    // Same key under another name is a conflict unless a partial filter or collation makes the
    // two indexes cover different documents (MongoDB allows those side by side).
    if (sameKey && distinguishingKey(sameKey) === distinguishingKey(spec)) {
      throw new CommandError(
        85,
        'IndexOptionsConflict',
        optionsKey(sameKey) === optionsKey(spec)
          ? `Index already exists with a different name: ${sameKey.name}`
          : `An equivalent index already exists with a different name and options. ` +
              `Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKey)}`,
      );
    }
    this.addIndex(spec);
    this.journal?.entries?.push({ kind: 'createIndex', collection: this, spec });
    return true;
  }

  /** Builds and adds an index that conflicts with no existing one (see `createIndex`). */
  private addIndex(spec: IndexSpec): void {
    if (spec.unique) {
      // Build the whole index first: a duplicate among existing documents fails the build and
      // leaves the collection as it was, as in MongoDB.
      const index = new UniqueIndex(spec, this.ns);
      for (const [idKey, doc] of this.docs) {
        try {
          index.check(doc, idKey);
        } catch (err) {
          if (!(err instanceof CommandError)) throw err;
          throw new CommandError(
            err.code,
            err.codeName,
            `Index build failed: ${this.uuid.toHexString()}: Collection ${this.ns} ` +
              `( ${this.uuid.toHexString()} ) :: caused by :: ${err.message}`,
            err.extra,
          );
        }
        index.add(doc, idKey);
      }
      this.uniques.set(spec.name, index);
    }
    this.indexes.push(spec);
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX.name) {
      throw new CommandError(72, 'InvalidOptions', 'cannot drop _id index');
    }
    const at = this.indexes.findIndex((i) => i.name === name);
    if (at === -1) {
      throw new CommandError(27, 'IndexNotFound', `index not found with name [${name}]`);
    }
    this.indexes.splice(at, 1);
    this.uniques.delete(name);
    this.changed();
  }

  findIndexNameByKey(key: Doc): string | undefined {
    return this.indexes.find((i) => canonicalKey(i.key) === canonicalKey(key))?.name;
  }
}
