import { badRequest } from '@dogshop/service-kit';

/**
 * A keyset position in a list ordered by creation time, newest first, ties by id: the last row
 * of a page, as an opaque `cursor` for the next. A new row never shifts a page, and a page costs
 * the same however deep it is.
 */
export interface CreatedCursor {
  createdAt: Date;
  id: number;
}

export const encodeCursor = ({ createdAt, id }: CreatedCursor): string =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');

/** The position of a cursor this service wrote, else 400 naming the parameter. */
export function decodeCursor(cursor: string, field = 'querystring.cursor'): CreatedCursor {
  const [at, idText, ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  const id = Number(idText);
  if (rest.length > 0 || Number.isNaN(createdAt.getTime()) || !Number.isSafeInteger(id) || id < 1) {
    throw badRequest(`${field} is not a cursor this list gave`);
  }
  return { createdAt, id };
}
