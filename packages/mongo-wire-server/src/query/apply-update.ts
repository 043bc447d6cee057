// Applies one update statement's `u` to a document, producing a NEW document (stored documents
// are never mutated, see storage/collection.ts). Three shapes, as in MongoDB: operator updates
// ({$set: ...}) via mingo's updater, aggregation-pipeline updates ([{$set: ...}]), and
// replacement documents. $setOnInsert is ours to handle: mingo doesn't know whether a write is an
// upsert-insert.
import { ObjectId } from 'bson';
import { update as mingoUpdate, updateOne as mingoUpdateOne } from 'mingo';
import { cloneDeep } from 'mingo/util';
import { CommandError, type Doc } from '../errors.js';
import { canonicalKey, isPlainObject } from '../storage/keys.js';

const UPDATE_OPERATORS = new Set([
  '$addToSet',
  '$bit',
  '$currentDate',
  '$inc',
  '$max',
  '$min',
  '$mul',
  '$pop',
  '$pull',
  '$pullAll',
  '$push',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
]);

const failedToParse = (message: string) => new CommandError(9, 'FailedToParse', message);

export interface UpdateOptions {
  arrayFilters?: Doc[];
  /** The statement's filter, needed for the positional `$` operator. */
  filter?: Doc;
  /** True when building the document an upsert inserts (enables $setOnInsert). */
  inserting?: boolean;
}

export function isReplacement(u: unknown): boolean {
  return isPlainObject(u) && !Object.keys(u).some((k) => k.startsWith('$'));
}

export function applyUpdate(original: Doc, u: unknown, opts: UpdateOptions = {}): Doc {
  let next: Doc;
  if (Array.isArray(u)) {
    const docs = [cloneDeep<Doc>(original)];
    mingoUpdateOne(docs, {}, u as never, { cloneMode: 'copy' });
    next = docs[0]!;
  } else if (!isPlainObject(u)) {
    throw failedToParse('Update argument must be either an object or an array');
  } else if (isReplacement(u)) {
    const { _id, ...rest } = u;
    if (_id !== undefined && original._id !== undefined) assertSameId(original._id, _id);
    next = { _id: original._id ?? _id, ...rest };
  } else {
    const modifier: Doc = {};
    for (const [op, fields] of Object.entries(u)) {
      if (!UPDATE_OPERATORS.has(op)) {
        throw failedToParse(
          `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
        );
      }
      if (op === '$setOnInsert') {
        if (opts.inserting) modifier.$set = { ...(modifier.$set as Doc), ...(fields as Doc) };
        continue;
      }
      modifier[op] = op === '$set' ? { ...(modifier.$set as Doc), ...(fields as Doc) } : fields;
    }
    const simple = isSimpleSetUnset(modifier);
    // The simple case changes top-level fields only: a shallow copy keeps the original intact.
    next = simple ? { ...original } : cloneDeep<Doc>(original);
    // mingo refuses any operator on `_id`, but MongoDB accepts `$set`/`$setOnInsert` of `_id`
    // when it doesn't change it, and uses it when an upsert inserts. Handle that case here.
    const set = modifier.$set as Doc | undefined;
    if (set && '_id' in set) {
      const { _id, ...rest } = set;
      modifier.$set = rest;
      if (original._id === undefined) next = { _id, ...next };
      else assertSameId(original._id, _id);
    }
    if (simple) {
      applySetUnset(next, modifier);
    } else if (
      Object.values(modifier).some(
        (fields) => isPlainObject(fields) && Object.keys(fields).length > 0,
      )
    ) {
      try {
        mingoUpdate(
          next,
          modifier as never,
          opts.arrayFilters,
          opts.inserting ? undefined : opts.filter,
        );
      } catch (err) {
        // mingo guards _id itself; report it with MongoDB's code like our own check below.
        if (err instanceof Error && err.message.includes("immutable field '_id'")) immutableId();
        throw err;
      }
    }
  }
  if (original._id !== undefined) assertSameId(original._id, next._id);
  return next;
}

/**
 * `$set` and `$unset` of top-level fields only (no dots, no `$`, no `_id` to unset, no field in
 * both): the commonest update (Mongoose's), applied without mingo, whose updater builds its
 * operator tables anew on every call. The result is mingo's: a set field keeps its place, a new
 * one goes last in the order given, an unset one goes.
 */
function isSimpleSetUnset(modifier: Doc): boolean {
  const { $set = {}, $unset = {}, ...others } = modifier;
  if (Object.keys(others).length > 0 || !isPlainObject($set) || !isPlainObject($unset)) {
    return false;
  }
  const simpleName = (name: string) =>
    name !== '' && name !== '__proto__' && !name.includes('.') && !name.startsWith('$');
  const setNames = Object.keys($set).filter((name) => name !== '_id');
  const unsetNames = Object.keys($unset);
  return (
    setNames.every(simpleName) &&
    unsetNames.every((name) => simpleName(name) && name !== '_id' && !(name in $set))
  );
}

function applySetUnset(doc: Doc, modifier: Doc): void {
  for (const name of Object.keys((modifier.$unset as Doc | undefined) ?? {})) delete doc[name];
  for (const [name, value] of Object.entries((modifier.$set as Doc | undefined) ?? {})) {
    doc[name] = value;
  }
}

function immutableId(): never {
  throw new CommandError(
    66,
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}

function assertSameId(before: unknown, after: unknown): void {
  if (canonicalKey(before) !== canonicalKey(after)) immutableId();
}

/** Whether an update actually changed anything (MongoDB's nModified counts only those). */
export function sameDocument(a: Doc, b: Doc): boolean {
  return canonicalKey(a) === canonicalKey(b);
}

/** MongoDB stores `_id` first and generates an ObjectId when the client sent none. */
export function withId(doc: Doc): Doc {
  if (Array.isArray(doc._id)) {
    throw new CommandError(2, 'BadValue', "can't use an array for _id");
  }
  const { _id, ...rest } = doc;
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}

/**
 * The document an upsert inserts: equality conditions of the filter become fields, then the
 * update is applied with $setOnInsert active. A replacement keeps only the filter's `_id`.
 */
export function buildUpsertDocument(filter: Doc, u: unknown, arrayFilters?: Doc[]): Doc {
  const equalities: Doc = {};
  collectEqualities(filter, equalities);
  const { _id, ...others } = equalities;
  const seed: Doc = _id === undefined ? {} : { _id };
  if (!isReplacement(u) && Object.keys(others).length > 0) {
    mingoUpdate(seed, { $set: others });
  }
  const opts: UpdateOptions = { inserting: true };
  if (arrayFilters) opts.arrayFilters = arrayFilters;
  return withId(applyUpdate(seed, u, opts));
}

function collectEqualities(filter: Doc, out: Doc): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) if (isPlainObject(clause)) collectEqualities(clause, out);
    } else if (key.startsWith('$') || value instanceof RegExp) {
      continue;
    } else if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
      if ('$eq' in value) out[key] = value.$eq;
    } else {
      out[key] = value;
    }
  }
}
