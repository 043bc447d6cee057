// All databases of one server instance. Databases exist only while they hold a collection, as in
// MongoDB; collections are created implicitly by the first write or index build.
import { CommandError, invalidNamespace, type Doc } from '../errors.js';
import { Collection } from './collection.js';

export class Store {
  private readonly databases = new Map<string, Map<string, Collection>>();
  /** Called after anything that changes data or metadata (drives persistence). */
  onChange: () => void = () => {};

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
