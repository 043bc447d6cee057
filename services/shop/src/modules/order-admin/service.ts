import type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderListQuery,
  AdminOrderSort,
  OrderStatus,
  OrderTimelineEntry,
} from '@dogshop/contracts/shop';
import { notFound } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { decodeKeyset, encodeKeyset, KEYSET_VALUE, type KeysetValue } from '../../domain/keyset.js';
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
} from './repository.js';

export { foldOrderStatusCounts } from './repository.js';

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

/** What each sort's cursor value looks like (a time, or an amount). */
const POSITION_VALUE: Record<AdminOrderSort, KeysetValue> = {
  '-created_at': KEYSET_VALUE.timestamp,
  created_at: KEYSET_VALUE.timestamp,
  '-total_amount': KEYSET_VALUE.amount,
};

/**
 * A page of orders in the query's sort, the next page's cursor, and the filter's exact total
 * (counted through the same indexes, beside the page).
 */
export async function listAdminOrders(
  db: Db,
  query: AdminOrderListQuery,
): Promise<{ orders: AdminOrder[]; nextCursor: string | null; total: number }> {
  const filter = filterOf(query);
  const after =
    query.cursor === undefined
      ? undefined
      : decodeKeyset(`orders sort=${query.sort}`, query.cursor, POSITION_VALUE[query.sort]);
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
        ? encodeKeyset(`orders sort=${query.sort}`, { value: last.position, id: last.id })
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
