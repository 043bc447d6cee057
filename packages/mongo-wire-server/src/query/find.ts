// find semantics (filter → sort → skip → limit → projection) delegated to mingo, which implements
// MongoDB's query language, BSON-like comparison order and projection rules.
import { find } from 'mingo';
import type { Options } from 'mingo/types';
import type { Doc } from '../errors.js';

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
