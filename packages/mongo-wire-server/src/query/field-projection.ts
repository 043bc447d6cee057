// Projections that only keep or drop top-level fields (`{ name: 1, phone: 1 }`, `{ notes: 0 }`)
// are what applications send nearly always. Those are applied here to a stored document's BSON
// by copying the elements it keeps, so the document's cached bytes serve projected reads too;
// everything else (dotted paths, operators, expressions, mixed or non-0/1 values) goes to mingo.
// Kept fields stay in document order with `_id` where it is stored, as mongod returns them.
import { onDemand } from 'bson';
import type { Doc } from '../errors.js';

export interface FieldProjection {
  /** Whether a top-level field of this name is in the result. */
  keeps(name: string): boolean;
  /** Equal for projections with the same result. */
  key: string;
}

/** The projection as a FieldProjection when it only keeps or drops top-level fields. */
export function fieldProjection(projection: Doc): FieldProjection | undefined {
  let include: boolean | undefined;
  let keepId = true;
  const fields = new Set<string>();
  for (const [name, value] of Object.entries(projection)) {
    if (name.includes('.') || name.startsWith('$')) return undefined;
    const on = value === 1 || value === true;
    if (!on && value !== 0 && value !== false) return undefined;
    if (name === '_id') {
      keepId = on;
      continue;
    }
    if (include !== undefined && include !== on) return undefined;
    include = on;
    fields.add(name);
  }
  // `{ _id: 1 }` alone keeps only _id; `{ _id: 0 }` alone drops only _id.
  const including = include ?? keepId;
  if (include === undefined && keepId && Object.keys(projection).length === 0) return undefined;
  return {
    keeps: (name) => (name === '_id' ? keepId : fields.has(name) === including),
    key: JSON.stringify([keepId, including, [...fields].sort()]),
  };
}

export function projectDocument(doc: Doc, projection: FieldProjection): Doc {
  const out: Doc = {};
  for (const name of Object.keys(doc)) if (projection.keeps(name)) out[name] = doc[name];
  return out;
}

/** The same projection on a document's BSON. */
export function projectBytes(bytes: Uint8Array, projection: FieldProjection): Uint8Array {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans: number[] = [];
  let size = 4 + 1;
  for (const [, nameOffset, nameLength, offset, length] of onDemand.parseToElements(bytes)) {
    if (!projection.keeps(view.toString('utf8', nameOffset, nameOffset + nameLength))) continue;
    // An element is its type byte, its name (a C string) and its value.
    spans.push(nameOffset - 1, offset + length);
    size += offset + length - (nameOffset - 1);
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.writeInt32LE(size, 0);
  for (let i = 0; i < spans.length; i += 2) at += view.copy(out, at, spans[i], spans[i + 1]);
  out[at] = 0;
  return out;
}
