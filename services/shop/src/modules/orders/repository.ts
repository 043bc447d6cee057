import type { OrderStatus } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import type { Decimal } from '../../domain/money.js';

/** What an order needs to know of a product it names. */
export interface CatalogueEntry {
  id: number;
  name: string;
  price: Decimal;
  active: boolean;
}

export const findCatalogueEntries = (tx: Tx, ids: number[]): Promise<CatalogueEntry[]> =>
  tx.product.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, price: true, active: true },
  });

/**
 * Takes the quantity off the shelf in one conditional UPDATE: it only applies while the product
 * is still active, at the checked price, with enough stock. PostgreSQL re-checks that condition
 * after waiting for a concurrent order's row lock, so no interleaving can oversell. Returns the
 * name at that moment (which the order keeps), or null when the condition did not hold.
 */
export async function takeStock(
  tx: Tx,
  product: { id: number; price: Decimal },
  quantity: number,
): Promise<string | null> {
  const [reserved] = await tx.product.updateManyAndReturn({
    where: { id: product.id, active: true, price: product.price, stock: { gte: quantity } },
    data: { stock: { decrement: quantity } },
    select: { name: true },
  });
  return reserved?.name ?? null;
}

export const findProductState = (tx: Tx, id: number) =>
  tx.product.findUnique({
    where: { id },
    select: { id: true, name: true, price: true, active: true, stock: true },
  });

export async function insertOrder(
  tx: Tx,
  order: {
    customerName: string;
    customerEmail: string;
    customerPhone: string;
    totalAmount: Decimal;
    status: OrderStatus;
  },
): Promise<number> {
  const row = await tx.order.create({ data: order, select: { id: true } });
  return row.id;
}

/**
 * All lines in one INSERT over arrays: Prisma compiles a new query plan for every createMany call
 * (the other queries here reuse cached plans), and that compile was ~7% of the service's CPU
 * under orders.
 */
export async function insertOrderItems(
  tx: Tx,
  orderId: number,
  items: Array<{
    productId: number;
    productName: string;
    quantity: number;
    unitPrice: Decimal;
    totalPrice: Decimal;
  }>,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO order_items (order_id, product_id, product_name, quantity, unit_price, total_price)
    SELECT ${orderId}, * FROM unnest(
      ${items.map((i) => i.productId)}::int[],
      ${items.map((i) => i.productName)}::text[],
      ${items.map((i) => i.quantity)}::int[],
      ${items.map((i) => i.unitPrice.toFixed(2))}::numeric[],
      ${items.map((i) => i.totalPrice.toFixed(2))}::numeric[]
    )`;
}

export async function recordStatusChange(
  tx: Tx,
  orderId: number,
  from: OrderStatus | null,
  to: OrderStatus,
): Promise<void> {
  await tx.orderStatusChange.create({
    data: { orderId, fromStatus: from, toStatus: to },
    select: { id: true },
  });
}

export const findOrderWithItems = (db: Db, id: number) =>
  db.order.findUnique({
    where: { id },
    include: { items: { orderBy: [{ productId: 'asc' }, { id: 'asc' }] } },
  });

export type OrderWithItems = NonNullable<Awaited<ReturnType<typeof findOrderWithItems>>>;

export async function findOrderStatus(tx: Tx, id: number): Promise<OrderStatus | null> {
  const order = await tx.order.findUnique({ where: { id }, select: { status: true } });
  return order?.status ?? null;
}

/** Conditional on the status just read: false when a concurrent change came first. */
export async function changeStatusIf(
  tx: Tx,
  id: number,
  from: OrderStatus,
  to: OrderStatus,
): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, status: from },
    data: { status: to },
  });
  return count > 0;
}

/** The order's lines by ascending product id, the same lock order as placing an order. */
export const findOrderLines = (tx: Tx, orderId: number) =>
  tx.orderItem.findMany({
    where: { orderId },
    select: { productId: true, quantity: true },
    orderBy: { productId: 'asc' },
  });

export async function returnStock(tx: Tx, productId: number, quantity: number): Promise<void> {
  await tx.product.update({ where: { id: productId }, data: { stock: { increment: quantity } } });
}
