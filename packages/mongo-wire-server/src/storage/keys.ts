// Index-key helpers. MongoDB compares index keys by BSON value, not by JS identity: 1, 1.0 and
// NumberLong(1) are the same key, two ObjectIds with the same bytes are equal, and embedded
// documents compare field by field in order. `canonicalKey` maps a value to a string with exactly
// that equality so a JS Map can stand in for a B-tree.
import { EJSON } from 'bson';

interface BsonValue {
  _bsontype: string;
  toString(): string;
  toHexString?(): string;
}

const isBson = (v: object): v is BsonValue => '_bsontype' in v;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function canonicalKey(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? 'n:0' : `n:${v}`;
    case 'bigint':
      return `n:${v}`;
    case 'string':
      return `s:${JSON.stringify(v)}`;
    case 'boolean':
      return `b:${v}`;
    case 'object':
      break;
    default:
      // undefined, symbol, function: not BSON values; their type name is key enough.
      return `?:${typeof v}`;
  }
  if (v instanceof Date) return `d:${v.getTime()}`;
  if (v instanceof RegExp) return `r:${v.source}/${v.flags}`;
  if (Array.isArray(v)) return `[${v.map(canonicalKey).join(',')}]`;
  if (isBson(v)) {
    switch (v._bsontype) {
      case 'ObjectId':
        return `o:${v.toHexString!()}`;
      case 'Long':
      case 'Int32':
      case 'Double':
      case 'Decimal128': {
        // Numbers of every BSON width are one key space in MongoDB indexes.
        const n = Number(v.toString());
        return Number.isSafeInteger(n) || !Number.isInteger(n) ? `n:${n}` : `n:${v.toString()}`;
      }
      default:
        return `${v._bsontype}:${EJSON.stringify(v)}`;
    }
  }
  const entries = Object.entries(v).map(([k, val]) => `${JSON.stringify(k)}:${canonicalKey(val)}`);
  return `{${entries.join(',')}}`;
}

/**
 * All values a dotted path reaches in a document, descending into arrays like MongoDB's multikey
 * indexes do: `tags` on `{tags: ['a','b']}` yields 'a' and 'b'; a missing field yields undefined.
 */
export function pathValues(value: unknown, path: string[]): unknown[] {
  if (path.length === 0) {
    if (Array.isArray(value)) return value.length > 0 ? value : [undefined];
    return [value];
  }
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    if (/^\d+$/.test(head)) return pathValues(value[Number(head)], rest);
    return value.length > 0 ? value.flatMap((item) => pathValues(item, path)) : [undefined];
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return pathValues((value as Record<string, unknown>)[head], rest);
  }
  return [undefined];
}

/** Renders a key value the way MongoDB's E11000 messages do: `{ name: "x" }`. */
export function formatKeyValue(keyValue: Record<string, unknown>): string {
  const parts = Object.entries(keyValue).map(([k, v]) => `${k}: ${formatValue(v)}`);
  return `{ ${parts.join(', ')} }`;
}

function formatValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (typeof v === 'object' && isBson(v) && v._bsontype === 'ObjectId') {
    return `ObjectId('${v.toHexString!()}')`;
  }
  return EJSON.stringify(v, { relaxed: true });
}
