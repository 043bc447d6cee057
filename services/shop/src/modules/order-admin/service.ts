import type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderListQuery,
  AdminOrderSort,
  OrderStatus,
  OrderTimelineEntry,
} from '@dogshop/contracts/shop';
import { badRequest, notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { setOrderStatus } from '../orders/service.js';

import { toAdminOrder, toAdminOrderDetail, toTimelineNote } from './mapper.js';
import {
  countOrders,
  findOrderForAdmin,
  findOrderPage,
  insertOrderNote,
  orderExists,
  type OrderFilter,
  type OrderPosition,
} from './repository.js';

/** The list's and the export's query parameters as a filter. */
export const filterOf = (query: {
  status?: OrderStatus[] | undefined;
  created_from?: string | undefined;
  created_to?: string | undefined;
  q?: string | undefined;
}): OrderFilter => ({
  statuses: query.status,
  createdFrom: query.created_from === undefined ? undefined : new Date(query.created_from),
  createdTo: query.created_to === undefined ? undefined : new Date(query.created_to),
  q: query.q?.trim() || undefined,
});

/** A cursor carries its sort: a page of one sort cannot continue another's. */
const encodePosition = (sort: AdminOrderSort, position: OrderPosition) =>
  Buffer.from(JSON.stringify([sort, position.value, position.id])).toString('base64url');

/** What a sort's cursor value must look like (a time, or an amount), checked before any SQL. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;
const POSITION_VALUE: Record<AdminOrderSort, RegExp> = {
  '-created_at': TIMESTAMP,
  created_at: TIMESTAMP,
  '-total_amount': AMOUNT,
};

function decodePosition(sort: AdminOrderSort, cursor: string): OrderPosition {
  try {
    const [cursorSort, value, id] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString(),
    ) as unknown[];
    if (
      cursorSort === sort &&
      typeof value === 'string' &&
      value.length <= 40 &&
      POSITION_VALUE[sort].test(value) &&
      Number.isSafeInteger(id) &&
      Number(id) > 0
    ) {
      return { value, id: Number(id) };
    }
  } catch {
    // not JSON: refused below
  }
  throw badRequest(`querystring.cursor is not a cursor this list gave for sort=${sort}`);
}

/**
 * A page of orders in the query's sort, the next page's cursor, and the filter's exact total
 * (counted through the same indexes, beside the page).
 */
export async function listAdminOrders(
  db: Db,
  query: AdminOrderListQuery,
): Promise<{ orders: AdminOrder[]; nextCursor: string | null; total: number }> {
  const filter = filterOf(query);
  const after = query.cursor === undefined ? undefined : decodePosition(query.sort, query.cursor);
  const [rows, total] = await Promise.all([
    findOrderPage(db, filter, query.sort, query.limit + 1, after),
    countOrders(db, filter),
  ]);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    orders: shown.map(toAdminOrder),
    nextCursor:
      rows.length > query.limit && last
        ? encodePosition(query.sort, { value: last.position, id: last.id })
        : null,
    total,
  };
}

export async function getAdminOrder(db: Db, id: number): Promise<AdminOrderDetail> {
  const order = await findOrderForAdmin(db, id);
  if (!order) throw notFound(`Order ${id} not found`);
  return toAdminOrderDetail(order);
}

/** A status change by staff or a key (the order's life cycle, its timeline, the audit). */
export async function changeAdminOrderStatus(
  db: Db,
  actor: Actor,
  id: number,
  change: { status: OrderStatus; note?: string | undefined },
): Promise<AdminOrderDetail> {
  await setOrderStatus(db, id, change.status, { actor, note: change.note?.trim() });
  return getAdminOrder(db, id);
}

export async function addOrderNote(
  db: Db,
  actor: Actor,
  id: number,
  text: string,
): Promise<OrderTimelineEntry> {
  return db.$transaction(async (tx) => {
    if (!(await orderExists(tx, id))) throw notFound(`Order ${id} not found`);
    const note = await insertOrderNote(tx, id, actor, text.trim());
    await insertAuditEntry(tx, actor, {
      action: 'order.note',
      resource: 'order',
      resourceId: id,
      after: { note: note.text },
    });
    return toTimelineNote(note);
  });
}
