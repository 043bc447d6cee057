// insert / update / delete. Each statement succeeds or fails on its own; failures become
// `writeErrors` entries (`{ index, code, errmsg, ... }`) and, for ordered batches (the default),
// stop the batch — exactly how MongoDB reports bulk write results.
import { CommandError, toErrorFields, type Doc } from '../errors.js';
import { isReplacement, withId } from '../query/apply-update.js';
import { findIn } from '../query/find.js';
import { updateDocuments } from '../query/update-documents.js';
import { isPlainObject } from '../storage/keys.js';
import { collectionName, optionalDoc, type CommandHandler } from './context.js';

interface BatchResult {
  writeErrors: Doc[];
}

/** Runs `fn` for each statement, collecting write errors and honouring `ordered`. */
function forEachStatement(
  cmd: Doc,
  field: string,
  fn: (stmt: Doc, index: number) => void,
): BatchResult {
  const statements = cmd[field];
  if (!Array.isArray(statements)) {
    throw new CommandError(
      40414,
      'Location40414',
      `BSON field '${field}' is missing but a required field`,
    );
  }
  const ordered = cmd.ordered !== false;
  const writeErrors: Doc[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      fn(statements[index] as Doc, index);
    } catch (err) {
      // writeErrors entries carry code/errmsg (+ keyPattern/keyValue), not codeName.
      const { codeName: _codeName, ...fields } = toErrorFields(err);
      writeErrors.push({ index, ...fields });
      if (ordered) break;
    }
  }
  return { writeErrors };
}

const withErrors = (reply: Doc, { writeErrors }: BatchResult): Doc =>
  writeErrors.length > 0 ? { ...reply, writeErrors, ok: 1 } : { ...reply, ok: 1 };

const insert: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'insert');
  const { collection } = ctx.store.ensureCollection(ctx.db, name);
  let n = 0;
  const result = forEachStatement(cmd, 'documents', (doc) => {
    if (!isPlainObject(doc)) throw new CommandError(2, 'BadValue', 'document must be an object');
    collection.insert(withId(doc));
    n += 1;
  });
  if (n > 0) ctx.store.changed();
  return withErrors({ n }, result);
};

const update: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'update');
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const result = forEachStatement(cmd, 'updates', (stmt, index) => {
    const multi = stmt.multi === true;
    if (multi && isReplacement(stmt.u)) {
      throw new CommandError(
        9,
        'FailedToParse',
        'multi update is not supported for replacement-style update',
      );
    }
    const outcome = updateDocuments(ctx.store, ctx.db, name, {
      filter: optionalDoc(stmt, 'q') ?? {},
      update: stmt.u,
      multi,
      upsert: stmt.upsert === true,
      ...(Array.isArray(stmt.arrayFilters) ? { arrayFilters: stmt.arrayFilters as Doc[] } : {}),
      ...(optionalDoc(stmt, 'sort') ? { sort: optionalDoc(stmt, 'sort')! } : {}),
      ...(optionalDoc(stmt, 'collation') ? { collation: optionalDoc(stmt, 'collation')! } : {}),
    });
    n += outcome.matched;
    nModified += outcome.modified;
    if (outcome.upsertedId !== undefined) {
      n += 1;
      upserted.push({ index, _id: outcome.upsertedId });
    }
  });
  return withErrors({ n, nModified, ...(upserted.length > 0 ? { upserted } : {}) }, result);
};

const del: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'delete');
  let n = 0;
  const result = forEachStatement(cmd, 'deletes', (stmt) => {
    const collection = ctx.store.collection(ctx.db, name);
    if (!collection) return;
    const collation = optionalDoc(stmt, 'collation');
    const matches = findIn(collection, {
      filter: optionalDoc(stmt, 'q') ?? {},
      limit: Number(stmt.limit) === 1 ? 1 : 0,
      ...(collation ? { collation } : {}),
    });
    for (const doc of matches) collection.remove(doc);
    n += matches.length;
  });
  if (n > 0) ctx.store.changed();
  return withErrors({ n }, result);
};

export const writeCommands: Record<string, CommandHandler> = { insert, update, delete: del };
