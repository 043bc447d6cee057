import type { OrderStatus } from '@dogshop/contracts/shop';

export const INITIAL_ORDER_STATUS: OrderStatus = 'pending';

/**
 * The order life cycle. Every path ends in `delivered` or `cancelled`, and nothing leads back,
 * so an order changes status at most three times.
 */
const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export type StatusChange = 'unchanged' | 'allowed' | 'refused';

/** Setting the current status again is allowed and changes nothing. */
export function judgeStatusChange(from: OrderStatus, to: OrderStatus): StatusChange {
  if (from === to) return 'unchanged';
  return NEXT[from].includes(to) ? 'allowed' : 'refused';
}

export const allowedNextStatuses = (from: OrderStatus): readonly OrderStatus[] => NEXT[from];

/** Goods of a cancelled order go back on the shelf. */
export const returnsStock = (to: OrderStatus): boolean => to === 'cancelled';
