import { badRequest } from '@dogshop/service-kit';

/**
 * Where a page of a sorted list starts: the last row's sort value (as text) and its id. A new
 * row never shifts a page, and a page costs the same however deep it is. The back office's
 * lists page this way; a cursor names its list and sort, so one list's cursor is refused by
 * another, and everything in it is checked before any SQL sees it.
 */
export interface KeysetPosition {
  value: string;
  id: number;
}

const MAX_INT = 2_147_483_647;

/** A sort value's kind: what its text must look like, as PostgreSQL will read it (null: refused). */
export type KeysetValue = (text: string) => string | null;

const TIMESTAMP =
  /^[1-9]\d{3}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

export const KEYSET_VALUE = {
  /** A time (as `timestamptz::text` or ISO writes it), handed on as ISO: a day that does not exist is refused. */
  timestamp: (text) => {
    if (!TIMESTAMP.test(text)) return null;
    const iso = text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
    const at = Date.parse(iso);
    return Number.isNaN(at) ? null : new Date(at).toISOString();
  },
  amount: (text) => (/^\d{1,10}(\.\d{1,2})?$/.test(text) ? text : null),
  integer: (text) => (/^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) <= MAX_INT ? text : null),
  /** Any text up to a product's name length. */
  text: (text) => (text.length <= 300 ? text : null),
} satisfies Record<string, KeysetValue>;

/** A cursor for the page after `position` in the list (or list and sort) `name`. */
export const encodeKeyset = (name: string, position: KeysetPosition): string =>
  Buffer.from(JSON.stringify([name, position.value, position.id])).toString('base64url');

/** The position of a cursor the list `name` gave, its value as `kind` reads it, else 400. */
export function decodeKeyset(name: string, cursor: string, kind: KeysetValue): KeysetPosition {
  try {
    const [cursorName, text, id] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString(),
    ) as unknown[];
    const value = cursorName === name && typeof text === 'string' ? kind(text) : null;
    if (value !== null && Number.isSafeInteger(id) && Number(id) >= 1 && Number(id) <= MAX_INT) {
      return { value, id: Number(id) };
    }
  } catch {
    // not JSON: refused below
  }
  throw badRequest(`querystring.cursor is not a cursor this list gave (${name})`);
}

/** A position in a list ordered by creation time, newest first, ties by id. */
export interface CreatedPosition {
  createdAt: Date;
  id: number;
}

/** The cursors of a list ordered newest first (customers, reviews), named `list`. */
export const createdKeyset = (list: string) => ({
  encode: ({ createdAt, id }: CreatedPosition) =>
    encodeKeyset(list, { value: createdAt.toISOString(), id }),
  decode(cursor: string): CreatedPosition {
    const { value, id } = decodeKeyset(list, cursor, KEYSET_VALUE.timestamp);
    return { createdAt: new Date(value), id };
  },
});

/** The cursors of a list ordered by a `bigint` id, newest first (the audit, stock movements). */
export const idKeyset = (list: string) => ({
  // The value is the id itself (a bigint, beyond the position's int4 id): the position's id is a
  // placeholder.
  encode: (id: bigint) => encodeKeyset(list, { value: id.toString(), id: 1 }),
  decode: (cursor: string): bigint =>
    BigInt(
      decodeKeyset(list, cursor, (text) => (/^[1-9]\d{0,17}$/.test(text) ? text : null)).value,
    ),
});
