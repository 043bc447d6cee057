// Databases and collections: listing, creating, dropping.
import { Query } from 'mingo';
import { encodeDocument } from '../wire/bson-options.js';
import type { Doc } from '../errors.js';
import { ID_INDEX } from '../storage/unique-index.js';
import { collectionName, cursorReply, optionalDoc, type CommandHandler } from './context.js';

/** Fields every command may carry that are not collection options. */
const GENERIC_FIELDS = new Set([
  'lsid',
  '$db',
  '$clusterTime',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'writeConcern',
  'readConcern',
  '$readPreference',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'comment',
  'maxTimeMS',
]);

const listDatabases: CommandHandler = (cmd, ctx) => {
  let databases: Doc[] = ctx.store.databaseNames().map((name) => {
    // An approximation of on-disk size, for tools that display it.
    const sizeOnDisk = ctx.store
      .collections(name)
      .reduce((sum, c) => sum + c.all().reduce((s, d) => s + encodeDocument(d).length, 0), 0);
    return { name, sizeOnDisk, empty: false };
  });
  const filter = optionalDoc(cmd, 'filter');
  if (filter) databases = new Query(filter).find(databases).all() as Doc[];
  if (cmd.nameOnly) return { databases: databases.map((d) => ({ name: d.name })), ok: 1 };
  const totalSize = databases.reduce((sum, d) => sum + (d.sizeOnDisk as number), 0);
  return { databases, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
};

const listCollections: CommandHandler = (cmd, ctx) => {
  let infos: Doc[] = ctx.store.collections(ctx.db).map((c) => ({
    name: c.name,
    type: 'collection',
    options: c.options,
    info: { readOnly: false, uuid: c.uuid },
    idIndex: ID_INDEX,
  }));
  const filter = optionalDoc(cmd, 'filter');
  if (filter) infos = new Query(filter).find(infos).all() as Doc[];
  if (cmd.nameOnly) infos = infos.map((i) => ({ name: i.name, type: i.type }));
  return cursorReply(ctx, `${ctx.db}.$cmd.listCollections`, infos, cmd);
};

export const namespaceCommands: Record<string, CommandHandler> = {
  listDatabases,
  dropDatabase: (_cmd, ctx) => {
    ctx.store.dropDatabase(ctx.db);
    return { dropped: ctx.db, ok: 1 };
  },
  listCollections,
  create: (cmd, ctx) => {
    const name = collectionName(cmd, 'create');
    const options: Doc = {};
    for (const [k, v] of Object.entries(cmd)) {
      if (k !== 'create' && !GENERIC_FIELDS.has(k)) options[k] = v;
    }
    ctx.store.createCollection(ctx.db, name, options);
    return { ok: 1 };
  },
  drop: (cmd, ctx) => {
    const name = collectionName(cmd, 'drop');
    const dropped = ctx.store.dropCollection(ctx.db, name);
    // Since MongoDB 7.0 dropping a missing collection succeeds.
    if (!dropped) return { ok: 1 };
    return { nIndexesWas: dropped.indexSpecs().length, ns: dropped.ns, ok: 1 };
  },
};
