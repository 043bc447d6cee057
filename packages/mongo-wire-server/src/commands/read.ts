// find / getMore / killCursors / count / distinct.
import { badValue } from '../errors.js';
import { runFind } from '../query/find.js';
import { canonicalKey, pathValues } from '../storage/keys.js';
import {
  collectionName,
  cursorReply,
  optionalDoc,
  optionalNumber,
  type CommandHandler,
} from './context.js';

const find: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'find');
  const collection = ctx.store.collection(ctx.db, name);
  const limit = optionalNumber(cmd, 'limit');
  const skip = optionalNumber(cmd, 'skip');
  if (skip !== undefined && skip < 0) throw badValue('skip value must be non-negative');
  const spec = {
    filter: optionalDoc(cmd, 'filter') ?? {},
    ...(optionalDoc(cmd, 'sort') ? { sort: optionalDoc(cmd, 'sort')! } : {}),
    ...(optionalDoc(cmd, 'projection') ? { projection: optionalDoc(cmd, 'projection')! } : {}),
    ...(optionalDoc(cmd, 'collation') ? { collation: optionalDoc(cmd, 'collation')! } : {}),
    ...(skip ? { skip } : {}),
    ...(limit ? { limit } : {}),
  };
  const docs = collection ? runFind(collection.all(), spec) : [];
  // A negative limit historically means "one batch only".
  const cursorCmd = { ...cmd, singleBatch: cmd.singleBatch === true || (limit ?? 0) < 0 };
  return cursorReply(ctx, `${ctx.db}.${name}`, docs, cursorCmd);
};

const getMore: CommandHandler = (cmd, ctx) => {
  const batch = ctx.cursors.getMore(cmd.getMore, optionalNumber(cmd, 'batchSize'));
  return { cursor: { nextBatch: batch.docs, id: batch.id, ns: batch.ns }, ok: 1 };
};

const killCursors: CommandHandler = (cmd, ctx) => {
  const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
  const { killed, notFound } = ctx.cursors.kill(ids);
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

const count: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'count');
  const collection = ctx.store.collection(ctx.db, name);
  const skip = optionalNumber(cmd, 'skip');
  const limit = optionalNumber(cmd, 'limit');
  const collation = optionalDoc(cmd, 'collation');
  const n = collection
    ? runFind(collection.all(), {
        filter: optionalDoc(cmd, 'query') ?? {},
        ...(skip ? { skip } : {}),
        ...(limit ? { limit } : {}),
        ...(collation ? { collation } : {}),
      }).length
    : 0;
  return { n, ok: 1 };
};

const distinct: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'distinct');
  if (typeof cmd.key !== 'string') throw badValue("BSON field 'distinct.key' is missing");
  const collection = ctx.store.collection(ctx.db, name);
  const collation = optionalDoc(cmd, 'collation');
  const docs = collection
    ? runFind(collection.all(), {
        filter: optionalDoc(cmd, 'query') ?? {},
        ...(collation ? { collation } : {}),
      })
    : [];
  const path = cmd.key.split('.');
  const seen = new Map<string, unknown>();
  for (const doc of docs) {
    // Array fields contribute each element, like MongoDB's distinct.
    for (const value of pathValues(doc, path)) {
      if (value === undefined) continue;
      const key = canonicalKey(value);
      if (!seen.has(key)) seen.set(key, value);
    }
  }
  return { values: Array.from(seen.values()), ok: 1 };
};

export const readCommands: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
};
