// find / getMore / killCursors / count / distinct.
import { badValue } from '../errors.js';
import { fieldProjection } from '../query/field-projection.js';
import { findIn } from '../query/find.js';
import { canonicalKey, pathValues } from '../storage/keys.js';
import { batchReply } from '../wire/cursor-reply.js';
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
  // Without a projection, or with one that only keeps or drops top-level fields (applied as the
  // batches are sent), the results are stored documents, whose BSON is reused.
  const fields = spec.projection ? fieldProjection(spec.projection) : undefined;
  const { projection, ...unprojected } = spec;
  const docs = findIn(collection, fields ? unprojected : spec);
  // A negative limit historically means "one batch only".
  const cursorCmd = { ...cmd, singleBatch: cmd.singleBatch === true || (limit ?? 0) < 0 };
  return cursorReply(ctx, `${ctx.db}.${name}`, docs, cursorCmd, {
    stored: !projection || fields !== undefined,
    projection: fields,
  });
};

const getMore: CommandHandler = (cmd, ctx) => {
  const batch = ctx.cursors.getMore(cmd.getMore, optionalNumber(cmd, 'batchSize'));
  return batchReply('nextBatch', batch.docs, batch.encoded, batch.id, batch.ns);
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
  const n = findIn(collection, {
    filter: optionalDoc(cmd, 'query') ?? {},
    ...(skip ? { skip } : {}),
    ...(limit ? { limit } : {}),
    ...(collation ? { collation } : {}),
  }).length;
  return { n, ok: 1 };
};

const distinct: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'distinct');
  if (typeof cmd.key !== 'string') throw badValue("BSON field 'distinct.key' is missing");
  const collection = ctx.store.collection(ctx.db, name);
  const collation = optionalDoc(cmd, 'collation');
  const docs = findIn(collection, {
    filter: optionalDoc(cmd, 'query') ?? {},
    ...(collation ? { collation } : {}),
  });
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
