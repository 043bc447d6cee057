import { badRequest } from '@dogshop/service-kit';

/**
 * A keyset position in one of the back office's lists ordered newest first, ties by id (the
 * customers, the reviews): the last row of a page as an opaque `cursor` for the next. It names
 * its list, so a cursor of one list is refused by another, and everything in it is checked
 * before any SQL sees it: a time PostgreSQL can read (years 1000–9999, milliseconds), an id in
 * the column's range.
 */
export interface ListPosition {
  createdAt: Date;
  id: number;
}

const MAX_ID = 2_147_483_647;
const TIME = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function listCursor(list: string) {
  return {
    encode: ({ createdAt, id }: ListPosition): string =>
      Buffer.from(JSON.stringify([list, createdAt.toISOString(), id])).toString('base64url'),

    /** The position of a cursor this list gave, else 400 naming the parameter. */
    decode(cursor: string): ListPosition {
      try {
        const [name, at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
        if (
          name === list &&
          typeof at === 'string' &&
          TIME.test(at) &&
          !Number.isNaN(Date.parse(at)) &&
          Number.isSafeInteger(id) &&
          Number(id) >= 1 &&
          Number(id) <= MAX_ID
        ) {
          return { createdAt: new Date(at), id: Number(id) };
        }
      } catch {
        // not JSON: refused below
      }
      throw badRequest(`querystring.cursor is not a cursor this list gave`);
    },
  };
}
