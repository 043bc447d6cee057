// Secondary indexes. Only `unique` ones change behaviour (queries scan anyway, apart from
// lookups by `_id`, see collection.ts, which is fine at development scale); the rest are kept so
// listIndexes/createIndexes answer like MongoDB.
import { Query } from 'mingo';
import { CommandError, type Doc } from '../errors.js';
import { canonicalKey, formatKeyValue, pathValues } from './keys.js';

/** An index as listIndexes reports it: `{ v: 2, key, name, ...options }`. */
export type IndexSpec = Doc & { v: number; key: Doc; name: string };

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** MongoDB's default index name: `a_1_b_-1`. */
export function defaultIndexName(key: Doc): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${String(dir)}`)
    .join('_');
}

export function duplicateKeyError(ns: string, spec: IndexSpec, keyValue: Doc): CommandError {
  return new CommandError(
    11000,
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: ${formatKeyValue(keyValue)}`,
    { keyPattern: spec.key, keyValue },
  );
}

interface KeyEntry {
  key: string;
  keyValue: Doc;
}

export class UniqueIndex {
  /** canonical key → canonical _id of the document holding it */
  private readonly owners = new Map<string, string>();
  private readonly fields: string[];
  private readonly partial: Query | undefined;

  constructor(
    readonly spec: IndexSpec,
    private readonly ns: string,
  ) {
    this.fields = Object.keys(spec.key);
    const filter = spec.partialFilterExpression;
    this.partial = filter ? new Query(filter) : undefined;
  }

  /** Every key this document contributes (several when a field is an array). */
  private keysOf(doc: Doc): KeyEntry[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const perField = this.fields.map((f) => pathValues(doc, f.split('.')));
    if (this.spec.sparse && perField.every((vals) => vals.every((v) => v === undefined))) {
      return [];
    }
    // Cartesian product for compound keys over array fields.
    let combos: unknown[][] = [[]];
    for (const values of perField) {
      combos = combos.flatMap((prefix) => values.map((v) => [...prefix, v]));
    }
    const seen = new Set<string>();
    const entries: KeyEntry[] = [];
    for (const combo of combos) {
      const key = combo.map(canonicalKey).join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      const keyValue: Doc = {};
      this.fields.forEach((f, i) => (keyValue[f] = combo[i] ?? null));
      entries.push({ key, keyValue });
    }
    return entries;
  }

  /** Throws E11000 if `doc` (whose _id key is `idKey`) would collide with another document. */
  check(doc: Doc, idKey: string): void {
    for (const { key, keyValue } of this.keysOf(doc)) {
      const owner = this.owners.get(key);
      if (owner !== undefined && owner !== idKey) {
        throw duplicateKeyError(this.ns, this.spec, keyValue);
      }
    }
  }

  add(doc: Doc, idKey: string): void {
    for (const { key } of this.keysOf(doc)) this.owners.set(key, idKey);
  }

  remove(doc: Doc, idKey: string): void {
    for (const { key } of this.keysOf(doc)) {
      if (this.owners.get(key) === idKey) this.owners.delete(key);
    }
  }
}
