import type { AdminOrder, AdminOrderDetail, OrderTimelineEntry } from '@dogshop/contracts/shop';
import { actorView } from '../audit/actor.js';
import { orderToDto } from '../orders/mapper.js';
import { allowedNextStatuses } from '../orders/order-status.js';
import type { AdminOrderRow, OrderForAdmin } from './repository.js';

export const toAdminOrder = (row: AdminOrderRow): AdminOrder => ({
  id: row.id,
  customer_name: row.customer_name,
  customer_email: row.customer_email,
  customer_phone: row.customer_phone,
  customer_id: row.customer_id,
  total_amount: Number(row.total_amount),
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toTimelineNote = (note: OrderForAdmin['notes'][number]): OrderTimelineEntry => ({
  type: 'note',
  at: note.createdAt.toISOString(),
  actor: actorView(note),
  from: null,
  to: null,
  note: note.text,
});

/** The order with its items, its next statuses and its timeline (changes and notes, oldest first). */
export function toAdminOrderDetail(order: OrderForAdmin): AdminOrderDetail {
  const changes: OrderTimelineEntry[] = order.history.map((change) => ({
    type: 'status',
    at: change.changedAt.toISOString(),
    actor: actorView(change),
    from: change.fromStatus,
    to: change.toStatus,
    note: change.note,
  }));
  const timeline = [...changes, ...order.notes.map(toTimelineNote)].sort((a, b) =>
    a.at.localeCompare(b.at),
  );
  return {
    ...orderToDto(order),
    customer_phone: order.customerPhone,
    customer_id: order.customerId,
    updated_at: order.updatedAt.toISOString(),
    allowed_next: [...allowedNextStatuses(order.status)],
    timeline,
  };
}
