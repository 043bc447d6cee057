// findAndModify: atomically update-or-remove one document and return it (before or after).
// Reply: `{ lastErrorObject: { n, updatedExisting, upserted? }, value, ok }`. Unlike bulk writes,
// a duplicate key here fails the whole command.
import { CommandError, type Doc } from '../errors.js';
import { findIn, runFind } from '../query/find.js';
import { updateDocuments } from '../query/update-documents.js';
import { collectionName, optionalDoc, type CommandHandler } from './context.js';

function project(doc: Doc | undefined, fields: Doc | undefined): Doc | null {
  if (!doc) return null;
  if (!fields || Object.keys(fields).length === 0) return doc;
  return runFind([doc], { projection: fields })[0] ?? null;
}

const findAndModify: CommandHandler = (cmd, ctx) => {
  const name = collectionName(
    cmd,
    cmd.findAndModify !== undefined ? 'findAndModify' : 'findandmodify',
  );
  const filter = optionalDoc(cmd, 'query') ?? {};
  const sort = optionalDoc(cmd, 'sort');
  const fields = optionalDoc(cmd, 'fields');
  const collation = optionalDoc(cmd, 'collation');
  const remove = cmd.remove === true;
  if (remove === (cmd.update !== undefined)) {
    throw new CommandError(
      9,
      'FailedToParse',
      remove
        ? 'Cannot specify both an update and remove=true'
        : 'Either an update or remove=true must be specified',
    );
  }

  if (remove) {
    const collection = ctx.store.collection(ctx.db, name);
    const [doc] = findIn(collection, {
      filter,
      limit: 1,
      ...(sort ? { sort } : {}),
      ...(collation ? { collation } : {}),
    });
    if (doc) {
      collection!.remove(doc);
      ctx.store.changed();
    }
    return { lastErrorObject: { n: doc ? 1 : 0 }, value: project(doc, fields), ok: 1 };
  }

  const outcome = updateDocuments(ctx.store, ctx.db, name, {
    filter,
    update: cmd.update,
    multi: false,
    upsert: cmd.upsert === true,
    ...(Array.isArray(cmd.arrayFilters) ? { arrayFilters: cmd.arrayFilters as Doc[] } : {}),
    ...(sort ? { sort } : {}),
    ...(collation ? { collation } : {}),
  });
  const upserted = outcome.upsertedId !== undefined;
  const lastErrorObject: Doc = {
    n: outcome.matched > 0 || upserted ? 1 : 0,
    updatedExisting: outcome.matched > 0,
    ...(upserted ? { upserted: outcome.upsertedId } : {}),
  };
  const value = cmd.new === true ? outcome.after : outcome.before;
  return { lastErrorObject, value: project(value, fields), ok: 1 };
};

export const findAndModifyCommands: Record<string, CommandHandler> = {
  findAndModify,
  findandmodify: findAndModify,
};
