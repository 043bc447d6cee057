import { badRequest } from '@dogshop/service-kit';

/**
 * Where a page of a sorted list starts: the last row's sort value (as text) and its id. A new
 * row never shifts a page, and a page costs the same however deep it is.
 */
export interface KeysetPosition {
  value: string;
  id: number;
}

/** What a sort value looks like in a cursor, checked before any SQL sees it. */
export const KEYSET_VALUE = {
  timestamp: /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/,
  amount: /^\d{1,10}(\.\d{1,2})?$/,
  integer: /^-?\d{1,10}$/,
  /** Any text up to a product's name length. */
  text: /^[^]{0,300}$/,
} as const;

/** A cursor carries its sort: a page of one sort cannot continue another's. */
export const encodeKeyset = (sort: string, position: KeysetPosition): string =>
  Buffer.from(JSON.stringify([sort, position.value, position.id])).toString('base64url');

/** The position of a cursor this list gave for `sort`, else 400 naming the parameter. */
export function decodeKeyset(sort: string, cursor: string, value: RegExp): KeysetPosition {
  try {
    const [cursorSort, text, id] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString(),
    ) as unknown[];
    if (
      cursorSort === sort &&
      typeof text === 'string' &&
      value.test(text) &&
      typeof id === 'number' &&
      Number.isSafeInteger(id) &&
      id > 0
    ) {
      return { value: text, id };
    }
  } catch {
    // not JSON: refused below
  }
  throw badRequest(`querystring.cursor is not a cursor this list gave for sort=${sort}`);
}
