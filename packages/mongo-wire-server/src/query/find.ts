// find semantics (filter → sort → skip → limit → projection) delegated to mingo, which implements
// MongoDB's query language, BSON-like comparison order and projection rules.
import { find } from 'mingo';
import type { Options } from 'mingo/types';
import type { Doc } from '../errors.js';
import { isPlainObject } from '../storage/keys.js';

export interface FindSpec {
  filter?: Doc;
  sort?: Doc;
  skip?: number;
  /** 0 or absent = no limit; negative is treated as its absolute value. */
  limit?: number;
  projection?: Doc;
  collation?: Doc;
}

export function mingoOptions(collation?: Doc): Partial<Options> | undefined {
  return collation && typeof collation.locale === 'string' && collation.locale !== 'simple'
    ? { collation: collation as unknown as Options['collation'] }
    : undefined;
}

/** Supplies the documents already in a sort order, when it keeps them in that order. */
export interface SortedSource {
  sortedBy(sort: Doc, sortAll: (docs: readonly Doc[]) => Doc[]): readonly Doc[] | undefined;
}

/** `docs` in `sort` order (stable: ties keep their order), by mingo's comparison rules. */
export function sortDocuments(docs: readonly Doc[], sort: Doc, collation?: Doc): Doc[] {
  return find(docs as Doc[], {}, {}, mingoOptions(collation))
    .sort(sort)
    .all();
}

/**
 * Returns matching documents; without a projection they are the stored objects themselves.
 * With `sorted`, a sort it has a ready order for filters that order instead of sorting the
 * matches: the same result, since the sort is stable and filtering keeps the order.
 */
export function runFind(docs: readonly Doc[], spec: FindSpec, sorted?: SortedSource): Doc[] {
  let source = docs;
  let sort = spec.sort && Object.keys(spec.sort).length > 0 ? spec.sort : undefined;
  // {$natural: -1} asks for reverse insertion order, which is just our storage order reversed.
  if (sort && '$natural' in sort) {
    if (Number(sort.$natural) < 0) source = [...docs].reverse();
    sort = undefined;
  }
  if (sort && sorted && !mingoOptions(spec.collation)) {
    const view = sorted.sortedBy(sort, (all) => sortDocuments(all, sort!));
    if (view) {
      source = view;
      sort = undefined;
    }
  }
  const cursor = find(
    source as Doc[],
    spec.filter ?? {},
    spec.projection ?? {},
    mingoOptions(spec.collation),
  );
  if (sort) cursor.sort(sort);
  if (spec.skip) cursor.skip(spec.skip);
  if (spec.limit) cursor.limit(Math.abs(spec.limit));
  return cursor.all();
}

/** A collection as finds read it: all its documents, its ready sort orders, its `_id` index. */
export interface FindSource extends SortedSource {
  all(): readonly Doc[];
  withIds(ids: readonly unknown[]): Doc[];
}

/**
 * `runFind` over a collection (none: no documents). A filter that names its documents by `_id`
 * (`{_id: x}`, `{_id: {$eq: x}}` or `{_id: {$in: [...]}}`, beside other conditions or in a
 * top-level `$and`) reads just those through the `_id` index and tests only them against the
 * rest of the filter, as mongod does, instead of testing every document; without a sort they
 * come in `_id` order, as from mongod's index scan. Other filters scan the collection.
 */
export function findIn(source: FindSource | undefined, spec: FindSpec): Doc[] {
  if (!source) return [];
  const lookup = idLookup(spec);
  if (!lookup) return runFind(source.all(), spec, source);
  const docs = source.withIds(lookup.ids);
  // One document or none, and nothing else to do with it (a findById, an update by _id): as is.
  const plain = !spec.projection && !spec.sort && !spec.skip;
  if (plain && docs.length <= 1 && Object.keys(lookup.rest).length === 0) return docs;
  const sort = spec.sort ?? (docs.length > 1 ? { _id: 1 } : undefined);
  return runFind(docs, { ...spec, filter: lookup.rest, ...(sort ? { sort } : {}) });
}

/**
 * The `_id`s a find's filter restricts it to, when the `_id` index can look them up, and the
 * filter that the documents found must still match: without the `_id` condition the index
 * decided (testing it again would cost a pass over the `$in` list per document).
 */
export function idLookup(
  spec: Pick<FindSpec, 'filter' | 'sort' | 'collation'>,
): { ids: unknown[]; rest: Doc } | undefined {
  // A collation other than simple compares strings otherwise than the index; $natural asks for
  // storage order.
  const { filter } = spec;
  if (!filter || mingoOptions(spec.collation) || (spec.sort && '$natural' in spec.sort)) {
    return undefined;
  }
  const decided = '_id' in filter ? idsOfCondition(filter._id) : undefined;
  if (decided) {
    const { _id: _decided, ...rest } = filter;
    return { ids: decided.ids, rest: decided.rest ? { ...rest, _id: decided.rest } : rest };
  }
  const ids = idsInAnd(filter);
  return ids ? { ids, rest: filter } : undefined;
}

/** The ids of the first clause of a top-level `$and` that names its documents by `_id`. */
function idsInAnd(filter: Doc): unknown[] | undefined {
  if (!Array.isArray(filter.$and)) return undefined;
  for (const clause of filter.$and as unknown[]) {
    if (!isPlainObject(clause)) continue;
    const found = '_id' in clause ? idsOfCondition(clause._id)?.ids : undefined;
    if (found) return found;
    const nested = idsInAnd(clause);
    if (nested) return nested;
  }
  return undefined;
}

/** The ids an `_id` condition names, and its other operators (to test on what is found). */
function idsOfCondition(condition: unknown): { ids: unknown[]; rest?: Doc } | undefined {
  if (isIndexable(condition)) return { ids: [condition] };
  if (!isPlainObject(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length === 0 || !operators.every((op) => op.startsWith('$'))) return undefined;
  const { $eq, $in, ...others } = condition;
  const rest = Object.keys(others).length > 0 ? others : undefined;
  if ('$eq' in condition && isIndexable($eq)) {
    return {
      ids: [$eq],
      ...('$in' in condition ? { rest: { ...others, $in } } : rest ? { rest } : {}),
    };
  }
  if (Array.isArray($in) && $in.every(isIndexable)) {
    return {
      ids: $in,
      ...('$eq' in condition ? { rest: { ...others, $eq } } : rest ? { rest } : {}),
    };
  }
  return undefined;
}

/**
 * A value the index finds exactly the documents of that a query's equality matches: the kinds
 * of `_id` in use (ObjectId, text, numbers, booleans, dates). Others (embedded documents,
 * arrays, regular expressions, null, other BSON types) leave the query to the scan, whose
 * matching decides them as before.
 */
function isIndexable(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(value);
    case 'object':
      if (value instanceof Date) return !Number.isNaN(value.getTime());
      return value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
    default:
      return false;
  }
}
