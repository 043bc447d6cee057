// aggregate: the pipeline runs in mingo. Leading $match stages are applied first with a plain
// query (cheap, no copying); the remaining stages get deep copies of the matching documents
// because some mingo stages build their output by modifying their input objects, and our stored
// documents must never change behind the store's back.
import { Aggregator, Query } from 'mingo';
import { cloneDeep } from 'mingo/util';
import { badValue, CommandError, type Doc } from '../errors.js';
import { withId } from '../query/apply-update.js';
import { idLookup, mingoOptions, sortDocuments } from '../query/find.js';
import { isPlainObject } from '../storage/keys.js';
import { collectionName, cursorReply, optionalDoc, type CommandHandler } from './context.js';

const aggregate: CommandHandler = (cmd, ctx) => {
  if (typeof cmd.aggregate !== 'string') {
    throw badValue('{aggregate: 1} (database-level aggregation) is not supported by the stand-in');
  }
  const name = collectionName(cmd, 'aggregate');
  if (!Array.isArray(cmd.pipeline))
    throw badValue("'pipeline' option must be specified as an array");
  const pipeline = cmd.pipeline as Doc[];
  const collation = optionalDoc(cmd, 'collation');
  const options = mingoOptions(collation);

  let stages = pipeline;
  let out: { db: string; coll: string } | undefined;
  const last = stages[stages.length - 1];
  if (last && '$out' in last) {
    const target = last.$out;
    out = isPlainObject(target)
      ? { db: typeof target.db === 'string' ? target.db : ctx.db, coll: String(target.coll) }
      : { db: ctx.db, coll: String(target) };
    stages = stages.slice(0, -1);
    if (ctx.transaction) {
      throw new CommandError(
        263,
        'OperationNotSupportedInTransaction',
        '$out cannot be used in a transaction',
      );
    }
  }
  if (stages.some((s) => '$merge' in s)) throw badValue('$merge is not supported by the stand-in');
  if (stages.some((s) => '$changeStream' in s)) {
    // What a standalone mongod says; we have no oplog to stream from either.
    throw new CommandError(
      40573,
      'Location40573',
      'The $changeStream stage is only supported on replica sets',
    );
  }

  // A first $match that names documents by _id reads them through the _id index (find.ts).
  const collection = ctx.store.collection(ctx.db, name);
  const first = stages[0]?.$match;
  const lookup = isPlainObject(first)
    ? idLookup({ filter: first, ...(collation ? { collation } : {}) })
    : undefined;
  let docs: readonly Doc[] = !collection
    ? []
    : lookup
      ? sortDocuments(collection.withIds(lookup.ids), { _id: 1 })
      : collection.all();
  if (lookup) stages = [{ $match: lookup.rest }, ...stages.slice(1)];
  let i = 0;
  for (; i < stages.length && '$match' in stages[i]!; i++) {
    docs = new Query(stages[i]!.$match as Doc, options).find(docs).all() as Doc[];
  }
  const rest = stages.slice(i);
  let results = docs;
  if (rest.length > 0) {
    const let_ = optionalDoc(cmd, 'let');
    const aggregator = new Aggregator(rest, {
      ...options,
      ...(let_ ? { variables: let_ } : {}),
      // $lookup / $unionWith read other collections of the same database (as copies).
      collectionResolver: (coll: string) =>
        (ctx.store.collection(ctx.db, coll)?.all() ?? []).map((d) => cloneDeep<Doc>(d)),
    });
    results = aggregator.run<Doc>(docs.map((d) => cloneDeep<Doc>(d)));
  }

  if (out) {
    // $out replaces the target's documents (keeping its indexes) and returns nothing.
    const { collection } = ctx.store.ensureCollection(out.db, out.coll);
    for (const doc of collection.all()) collection.remove(doc);
    for (const doc of results) collection.insert(withId(doc));
    ctx.store.changed();
    results = [];
  }
  return cursorReply(ctx, `${ctx.db}.${name}`, results, cmd);
};

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };
