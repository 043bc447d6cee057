// All databases of one server instance. Databases exist only while they hold a collection, as in
// MongoDB; collections are created implicitly by the first write or index build.
import { CommandError, invalidNamespace, type Doc } from '../errors.js';
import { Collection } from './collection.js';
import type { Journal, UndoEntry } from './undo-log.js';

export class Store {
  private readonly databases = new Map<string, Map<string, Collection>>();
  /** Shared with every collection of this store (see `recording`). */
  private readonly journal: Journal = { entries: undefined };
  /** Called after anything that changes data or metadata (drives persistence). */
  onChange: () => void = () => {};

  /**
   * Runs `fn` (one statement of a transaction) appending every change it makes to `log`:
   * documents inserted, replaced or removed, indexes and collections created.
   */
  recording<T>(log: UndoEntry[], fn: () => T): T {
    this.journal.entries = log;
    try {
      return fn();
    } finally {
      this.journal.entries = undefined;
    }
  }

  /** Takes back everything in `log`, newest first (an aborted transaction). */
  undo(log: readonly UndoEntry[]): void {
    for (let i = log.length - 1; i >= 0; i--) {
      const entry = log[i]!;
      if (entry.kind === 'createCollection') {
        const { db, name } = entry.collection;
        if (this.collection(db, name) === entry.collection) this.dropCollection(db, name);
      } else {
        entry.collection.undo(entry);
      }
    }
    if (log.length > 0) this.changed();
  }

  /** Makes everything in `log` again, oldest first, after `undo(log)`. */
  redo(log: readonly UndoEntry[]): void {
    for (const entry of log) {
      if (entry.kind === 'createCollection') this.addCollection(entry.collection);
      else entry.collection.redo(entry);
    }
    if (log.length > 0) this.changed();
  }

  /** Runs `fn` on the state before `log` (a read outside an open transaction), then redoes it. */
  withoutChanges<T>(log: readonly UndoEntry[], fn: () => T): T {
    if (this.journal.entries) throw new Error('withoutChanges while recording');
    this.undo(log);
    try {
      return fn();
    } finally {
      this.redo(log);
    }
  }

  changed(): void {
    this.onChange();
  }

  databaseNames(): string[] {
    return Array.from(this.databases.keys());
  }

  collections(db: string): Collection[] {
    return Array.from(this.databases.get(db)?.values() ?? []);
  }

  collection(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** Returns the collection, creating it (and its database) if needed. */
  ensureCollection(db: string, name: string): { collection: Collection; created: boolean } {
    const existing = this.collection(db, name);
    if (existing) return { collection: existing, created: false };
    return { collection: this.addCollection(new Collection(db, name)), created: true };
  }

  createCollection(db: string, name: string, options: Doc): Collection {
    if (this.collection(db, name)) {
      throw new CommandError(48, 'NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    return this.addCollection(new Collection(db, name, options));
  }

  /** Adds a fully built collection (used by `create` and by loading persisted state). */
  addCollection(collection: Collection): Collection {
    validateName(collection.db, collection.name);
    let db = this.databases.get(collection.db);
    if (!db) {
      db = new Map();
      this.databases.set(collection.db, db);
    }
    db.set(collection.name, collection);
    collection.journal = this.journal;
    this.journal.entries?.push({ kind: 'createCollection', collection });
    this.changed();
    return collection;
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const collections = this.databases.get(db);
    const collection = collections?.get(name);
    if (!collections || !collection) return undefined;
    collections.delete(name);
    if (collections.size === 0) this.databases.delete(db);
    this.changed();
    return collection;
  }

  dropDatabase(db: string): void {
    if (this.databases.delete(db)) this.changed();
  }
}

function validateName(db: string, name: string): void {
  if (!db || /[/\\. "$]/.test(db)) invalidNamespaceError(`Invalid database name: '${db}'`);
  if (!name || name.includes('$') || name.startsWith('.') || name.includes('\0')) {
    invalidNamespaceError(`Invalid collection name: ${name}`);
  }
}

function invalidNamespaceError(message: string): never {
  throw invalidNamespace(message);
}
