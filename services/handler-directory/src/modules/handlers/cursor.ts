// The public list's cursors: opaque to clients, base64url of a JSON array holding the sort key of
// the last handler of a page. A page then starts right after that key, so handlers added or
// removed in between neither repeat nor skip one that stayed.
import type { Point } from './geo.js';

/** The name order's key (stored `nameSort`, then the id): the list's order, total. */
export interface NameKey {
  nameSort: string;
  id: string;
}

/** The admin list's last-changed-first key: `updatedAt` (ms), then the id. */
export interface UpdatedKey {
  updatedAt: number;
  id: string;
}

/** The nearest-first order's key: distance from `point`, then the name order. */
export interface DistanceKey extends NameKey {
  km: number;
  point: Point;
}

const ID = /^[0-9a-f]{24}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Sort keys are derived from names of at most 200 characters; anything longer is no key. */
const MAX_SORT_KEY = 1_000;

const encode = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** `["<nameSort>","<id>"]` */
export const nameCursor = (key: NameKey): string => encode([key.nameSort, key.id]);

/** `[<km>,"<nameSort>","<id>",<lat>,<lng>]`: the point too, so that it is not used with another. */
export const distanceCursor = (key: DistanceKey): string =>
  encode([key.km, key.nameSort, key.id, key.point.lat, key.point.lng]);

/** `["u",<updatedAt ms>,"<id>"]` */
export const updatedCursor = (key: UpdatedKey): string => encode(['u', key.updatedAt, key.id]);

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The key of a cursor this service made, or undefined for anything else. */
export function decodeCursor(text: string): NameKey | DistanceKey | UpdatedKey | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Only the canonical spelling: one cursor per key.
  if (bytes.toString('base64url') !== text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const isKey = (nameSort: unknown, id: unknown) =>
    typeof nameSort === 'string' &&
    nameSort.length <= MAX_SORT_KEY &&
    typeof id === 'string' &&
    ID.test(id);
  if (value.length === 2) {
    const [nameSort, id] = value as unknown[];
    return isKey(nameSort, id) ? { nameSort: nameSort as string, id: id as string } : undefined;
  }
  if (value.length === 3) {
    const [tag, updatedAt, id] = value as unknown[];
    if (tag !== 'u' || !Number.isSafeInteger(updatedAt) || typeof id !== 'string') return undefined;
    return ID.test(id) ? { updatedAt: updatedAt as number, id } : undefined;
  }
  if (value.length === 5) {
    const [km, nameSort, id, lat, lng] = value as unknown[];
    if (!isKey(nameSort, id) || !isFiniteNumber(km) || km < 0) return undefined;
    if (!isFiniteNumber(lat) || !isFiniteNumber(lng)) return undefined;
    return { km, nameSort: nameSort as string, id: id as string, point: { lat, lng } };
  }
  return undefined;
}

export const isDistanceKey = (key: NameKey | DistanceKey | UpdatedKey): key is DistanceKey =>
  'km' in key;
export const isUpdatedKey = (key: NameKey | DistanceKey | UpdatedKey): key is UpdatedKey =>
  'updatedAt' in key;

/** Byte order of the UTF-8 encodings: MongoDB's order of strings (no collation). */
export const compareSortKeys = (a: string, b: string): number =>
  a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The nearest-first order: distance, then stored name key, then id. */
export function compareDistanceKeys(
  a: { km: number; nameSort: string; id: string },
  b: { km: number; nameSort: string; id: string },
): number {
  if (a.km !== b.km) return a.km - b.km;
  return compareSortKeys(a.nameSort, b.nameSort) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
