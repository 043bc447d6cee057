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

/** Returns matching documents; without a projection they are the stored objects themselves. */
export function runFind(docs: Doc[], spec: FindSpec): Doc[] {
  let source = docs;
  let sort = spec.sort && Object.keys(spec.sort).length > 0 ? spec.sort : undefined;
  // {$natural: -1} asks for reverse insertion order, which is just our storage order reversed.
  if (sort && '$natural' in sort) {
    if (Number(sort.$natural) < 0) source = [...docs].reverse();
    sort = undefined;
  }
  const cursor = find(
    source,
    spec.filter ?? {},
    spec.projection ?? {},
    mingoOptions(spec.collation),
  );
  if (sort) cursor.sort(sort as Record<string, 1 | -1>);
  if (spec.skip) cursor.skip(spec.skip);
  if (spec.limit) cursor.limit(Math.abs(spec.limit));
  return cursor.all() as Doc[];
}
