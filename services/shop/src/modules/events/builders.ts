import {
  PRODUCT_CHANGE_FIELDS,
  type EventData,
  type EventType,
  type OrderDetail,
  type OrderStatus,
  type Product,
  type ProductChangeField,
  type Review,
} from '@dogshop/contracts/shop';
import type { Actor } from '../audit/actor.js';

/**
 * One builder per event type: the only place its `data` is made. Every writer of the type calls
 * it and writes what it returns with `insertEvents` (repository.ts) in the transaction of the
 * change, or (the order's one statement) with `eventsInsertSql`. The envelope a subscription and
 * the feed get (`{type, timestamp, data}`) is made by `envelopeSql` (repository.ts).
 */

/** An event to write with the change that causes it. */
export interface NewEvent<T extends EventType = EventType> {
  type: T;
  data: EventData[T];
  occurredAt: Date;
}

/** `actor` when there is one; none at all when no one is known (the field is optional). */
const by = (actor: Actor | null | undefined) => (actor ? { actor } : {});

/** An order was placed: the order as GET /orders/{id} shows it (orderToDto). */
export const orderCreatedEvent = (
  order: OrderDetail,
  occurredAt: Date,
): NewEvent<'order.created'> => ({ type: 'order.created', data: order, occurredAt });

/** An order's status changed: from, to, the order as changed, and who changed it (or null). */
export const orderStatusChangedEvent = (
  change: { from: OrderStatus; to: OrderStatus; order: OrderDetail; actor: Actor | null },
  occurredAt: Date,
): NewEvent<'order.status_changed'> => ({
  type: 'order.status_changed',
  data: { from: change.from, to: change.to, order: change.order, actor: change.actor },
  occurredAt,
});

/** A review was written: the review as the product's reviews list it. */
export const reviewCreatedEvent = (review: Review): NewEvent<'review.created'> => ({
  type: 'review.created',
  data: review,
  occurredAt: new Date(review.created_at),
});

/** A product as the stock events name it: its id, its name and its stock after the change. */
export interface StockedProduct {
  id: number;
  name: string;
  stock: number;
}

/** A change took the product's stock to 0. */
export const productOutOfStockEvent = (
  product: StockedProduct,
  actor: Actor | null,
  occurredAt: Date = new Date(),
): NewEvent<'product.out_of_stock'> => ({
  type: 'product.out_of_stock',
  data: { product_id: product.id, name: product.name, stock: product.stock, ...by(actor) },
  occurredAt,
});

/** A change gave a sold-out product stock again. */
export const productBackInStockEvent = (
  product: StockedProduct,
  actor: Actor | null,
  occurredAt: Date = new Date(),
): NewEvent<'product.back_in_stock'> => ({
  type: 'product.back_in_stock',
  data: { product_id: product.id, name: product.name, stock: product.stock, ...by(actor) },
  occurredAt,
});

/** A product was added: the product as the public product DTO shows it, and who added it. */
export const productCreatedEvent = (
  product: Product,
  actor: Actor | null,
  occurredAt: Date = new Date(),
): NewEvent<'product.created'> => ({
  type: 'product.created',
  data: { ...product, ...by(actor) },
  occurredAt,
});

/**
 * A product was changed: the product as changed (the public product DTO), the fields that
 * changed (price, name, description, category, active; each once, in this order), and who changed
 * it. Null when none of these changed: no event to write (insertEvents skips it).
 */
export function productUpdatedEvent(
  product: Product,
  changes: readonly ProductChangeField[],
  actor: Actor | null,
  occurredAt: Date = new Date(),
): NewEvent<'product.updated'> | null {
  const changed = PRODUCT_CHANGE_FIELDS.filter((field) => changes.includes(field));
  if (changed.length === 0) return null;
  return {
    type: 'product.updated',
    data: { ...product, changes: changed, ...by(actor) },
    occurredAt,
  };
}
