// Optional file persistence so a development server keeps its data across restarts. The whole
// state is written as canonical Extended JSON (types like ObjectId, Date, Decimal128 and
// non-integer doubles survive exactly, and the file stays readable), to a temp file that is then
// renamed over the old one, so a crash mid-write never leaves a truncated data file. While a
// transaction is open the store holds its uncommitted writes, so nothing is saved (`hold`) until
// it commits or aborts: the file only ever holds committed state.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EJSON, UUID } from 'bson';
import type { Doc } from '../errors.js';
import { Collection } from './collection.js';
import type { Store } from './store.js';
import type { IndexSpec } from './unique-index.js';

const FORMAT = 'mongo-wire-server/1';
const SAVE_DELAY_MS = 100;

interface PersistedCollection {
  name: string;
  uuid: string;
  options: Doc;
  indexes: IndexSpec[];
  documents: readonly Doc[];
}

interface PersistedState {
  format: string;
  databases: Array<{ name: string; collections: PersistedCollection[] }>;
}

export class Persistence {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private held = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly store: Store,
    private readonly log: (msg: string) => void,
  ) {}

  async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    // relaxed parse: plain JS numbers for int32/double, like documents decoded off the wire.
    const state = EJSON.parse(text, { relaxed: true }) as PersistedState;
    if (state.format !== FORMAT) throw new Error(`${this.path}: unknown format ${state.format}`);
    for (const db of state.databases) {
      for (const c of db.collections) {
        const collection = new Collection(db.name, c.name, c.options, new UUID(c.uuid));
        for (const spec of c.indexes) collection.createIndex(spec);
        for (const doc of c.documents) collection.insert(doc);
        this.store.addCollection(collection);
      }
    }
    this.dirty = false;
  }

  /** Coalesces bursts of writes into one save shortly after the last one. */
  scheduleSave(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((err: unknown) =>
        this.log(`mongo-wire-server: save failed: ${String(err)}`),
      );
    }, SAVE_DELAY_MS);
  }

  /** No saving from now on (a transaction opened: the store holds uncommitted writes). */
  hold(): void {
    this.held = true;
  }

  /** Saving allowed again (the transaction committed or was undone); saves what is pending. */
  release(): void {
    this.held = false;
    if (this.dirty) this.scheduleSave();
  }

  /** Writes pending changes now (unless held); resolves once they are on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // Chain writes so two saves never race on the temp file or land out of order.
    const write = async () => {
      // Checked when the write starts, and the snapshot is taken in the same tick: a transaction
      // that opens later cannot leak into it. Held: `release` schedules the save.
      if (!this.dirty || this.held) return;
      this.dirty = false;
      try {
        const text = this.snapshot();
        const tmp = `${this.path}.${process.pid}.tmp`;
        await mkdir(dirname(this.path), { recursive: true });
        await writeFile(tmp, text);
        await rename(tmp, this.path);
      } catch (err) {
        this.dirty = true; // try again on the next save
        throw err;
      }
    };
    const result = this.writing.then(write);
    this.writing = result.catch(() => {});
    return result;
  }

  private snapshot(): string {
    const state: PersistedState = {
      format: FORMAT,
      databases: this.store.databaseNames().map((name) => ({
        name,
        collections: this.store.collections(name).map((c) => ({
          name: c.name,
          uuid: c.uuid.toHexString(),
          options: c.options,
          indexes: c.indexSpecs().filter((i) => i.name !== '_id_'),
          documents: c.all(),
        })),
      })),
    };
    return EJSON.stringify(state, { relaxed: false });
  }
}
