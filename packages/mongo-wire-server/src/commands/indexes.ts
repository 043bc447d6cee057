// createIndexes / listIndexes / dropIndexes. Index definitions are kept verbatim for listIndexes;
// only unique (and sparse / partial unique) indexes affect behaviour.
import { CommandError, namespaceNotFound } from '../errors.js';
import { isPlainObject } from '../storage/keys.js';
import { defaultIndexName, type IndexSpec } from '../storage/unique-index.js';
import { collectionName, cursorReply, type CommandHandler } from './context.js';

function normaliseSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
    throw new CommandError(
      9,
      'FailedToParse',
      "Error in specification: the 'key' field is required",
    );
  }
  const { key, name, v: _v, background: _bg, ns: _ns, ...options } = raw;
  const spec: IndexSpec = {
    v: 2,
    key,
    name: typeof name === 'string' ? name : defaultIndexName(key),
  };
  for (const [k, value] of Object.entries(options)) {
    // unique: false is the default; MongoDB doesn't list it.
    if (k === 'unique' && !value) continue;
    spec[k] = value;
  }
  return spec;
}

const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
    throw new CommandError(2, 'BadValue', 'Must specify at least one index to create');
  }
  const specs = cmd.indexes.map(normaliseSpec);
  const { collection, created } = ctx.store.ensureCollection(ctx.db, name);
  const numIndexesBefore = collection.indexSpecs().length;
  let createdAny = false;
  for (const spec of specs) createdAny = collection.createIndex(spec) || createdAny;
  if (createdAny) ctx.store.changed();
  return {
    numIndexesBefore,
    numIndexesAfter: collection.indexSpecs().length,
    ...(createdAny ? {} : { note: 'all indexes already exist' }),
    createdCollectionAutomatically: created,
    ok: 1,
  };
};

const dropIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'dropIndexes');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw namespaceNotFound(`ns not found ${ctx.db}.${name}`);
  const nIndexesWas = collection.indexSpecs().length;
  const target = cmd.index;
  let names: string[];
  if (target === '*') {
    names = collection
      .indexSpecs()
      .map((i) => i.name)
      .filter((n) => n !== '_id_');
  } else if (typeof target === 'string') {
    names = [target];
  } else if (Array.isArray(target)) {
    names = target.map(String);
  } else if (isPlainObject(target)) {
    const found = collection.findIndexNameByKey(target);
    if (!found) {
      throw new CommandError(
        27,
        'IndexNotFound',
        `can't find index with key: ${JSON.stringify(target)}`,
      );
    }
    names = [found];
  } else {
    throw new CommandError(14, 'TypeMismatch', "BSON field 'index' has an invalid type");
  }
  for (const n of names) collection.dropIndex(n);
  ctx.store.changed();
  return { nIndexesWas, ok: 1 };
};

export const indexCommands: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes: (cmd, ctx) => {
    const name = collectionName(cmd, 'listIndexes');
    const collection = ctx.store.collection(ctx.db, name);
    if (!collection) throw namespaceNotFound(`ns does not exist: ${ctx.db}.${name}`);
    return cursorReply(ctx, collection.ns, collection.indexSpecs(), cmd);
  },
  dropIndexes,
  deleteIndexes: (cmd, ctx) => dropIndexes({ ...cmd, dropIndexes: cmd.deleteIndexes }, ctx),
};
