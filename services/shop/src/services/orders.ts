import type {
  CreateOrderBody,
  CreateOrderResponse,
  OrderDetail,
  OrderStatus,
} from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound, type HttpError } from '@dogshop/service-kit';
import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { Decimal, sameCents, toMoneyNumber } from '../domain/money.js';
import {
  MAX_ORDER_TOTAL,
  lineTotal,
  mergeLines,
  orderTotal,
  type MergedLine,
} from '../domain/order-lines.js';
import {
  INITIAL_ORDER_STATUS,
  allowedNextStatuses,
  judgeStatusChange,
  returnsStock,
} from '../domain/order-status.js';
import { optionalText, requiredText } from '../domain/text.js';

export type Tx = Prisma.TransactionClient;

/** Order transactions touch a few rows; waiting for a pooled connection may take longer under load. */
export const ORDER_TRANSACTION = { maxWait: 10_000, timeout: 10_000 } as const;

type CatalogueEntry = { id: number; name: string; price: Decimal; active: boolean };

export const createOrder = (db: Db, body: CreateOrderBody): Promise<CreateOrderResponse> =>
  db.$transaction((tx) => placeOrder(tx, body), ORDER_TRANSACTION);

/**
 * Validates the order against the catalogue, reserves the stock and writes the order, all on the
 * caller's transaction: any refusal rolls everything back. Products must exist and be active
 * (400), every sent price must be the catalogue's (409), and the stock must suffice (409).
 */
export async function placeOrder(tx: Tx, body: CreateOrderBody): Promise<CreateOrderResponse> {
  const customerName = requiredText(body.customer_name, 'body.customer_name');
  const lines = mergeLines(body.items);
  const catalogue = await tx.product.findMany({
    where: { id: { in: lines.map((l) => l.productId) } },
    select: { id: true, name: true, price: true, active: true },
  });
  const byId = new Map(catalogue.map((p) => [p.id, p]));
  const entries = lines.map((line) => {
    const product = byId.get(line.productId);
    if (!product) throw badRequest(`product ${line.productId} does not exist`);
    if (!product.active) throw unavailable(product);
    return { line, product };
  });
  for (const { line, product } of entries) {
    const wrong = line.sentPrices.find((sent) => !sameCents(product.price, sent));
    if (wrong !== undefined) throw priceConflict(product, wrong);
  }
  const totals = entries.map(({ line, product }) => lineTotal(product.price, line.quantity));
  const total = orderTotal(totals);
  if (total.greaterThan(MAX_ORDER_TOTAL)) {
    throw badRequest(
      `order total ${total.toFixed(2)} exceeds the maximum of ${MAX_ORDER_TOTAL.toFixed(2)}`,
    );
  }

  const names: string[] = [];
  for (const { line, product } of entries) names.push(await reserveStock(tx, line, product));
  // Three plain INSERTs, the items in one. A nested create would also look up every product
  // again (to connect it) and read the order back; the products were just locked and the total
  // is already known.
  const order = await tx.order.create({
    data: {
      customerName,
      customerEmail: body.customer_email,
      customerPhone: optionalText(body.customer_phone) ?? '',
      totalAmount: total,
      status: INITIAL_ORDER_STATUS,
    },
    select: { id: true },
  });
  // As SQL over arrays: Prisma compiles a new query plan for every createMany call (the other
  // queries here reuse cached plans), and that compile was ~7% of the service's CPU under orders.
  await tx.$executeRaw`
    INSERT INTO order_items (order_id, product_id, product_name, quantity, unit_price, total_price)
    SELECT ${order.id}, * FROM unnest(
      ${entries.map((e) => e.product.id)}::int[],
      ${names}::text[],
      ${entries.map((e) => e.line.quantity)}::int[],
      ${entries.map((e) => e.product.price.toFixed(2))}::numeric[],
      ${totals.map((t) => t.toFixed(2))}::numeric[]
    )`;
  await tx.orderStatusChange.create({
    data: { orderId: order.id, fromStatus: null, toStatus: INITIAL_ORDER_STATUS },
    select: { id: true },
  });
  return {
    success: true,
    data: { order_id: order.id, total_amount: toMoneyNumber(total) },
    message: `Order ${order.id} created`,
  };
}

/**
 * Takes the quantity off the shelf in one conditional UPDATE: it only applies while the product
 * is still active, at the checked price, with enough stock. PostgreSQL re-checks that condition
 * after waiting for a concurrent order's row lock, so no interleaving can oversell. Returns the
 * name at that moment, which the order keeps.
 */
async function reserveStock(tx: Tx, line: MergedLine, product: CatalogueEntry): Promise<string> {
  const [reserved] = await tx.product.updateManyAndReturn({
    where: { id: product.id, active: true, price: product.price, stock: { gte: line.quantity } },
    data: { stock: { decrement: line.quantity } },
    select: { name: true },
  });
  if (reserved) return reserved.name;
  throw await whyNotReserved(tx, line, product.id);
}

async function whyNotReserved(tx: Tx, line: MergedLine, id: number): Promise<HttpError> {
  const now = await tx.product.findUnique({
    where: { id },
    select: { id: true, name: true, price: true, active: true, stock: true },
  });
  if (!now) return badRequest(`product ${id} does not exist`);
  if (!now.active) return unavailable(now);
  const wrong = line.sentPrices.find((sent) => !sameCents(now.price, sent));
  if (wrong !== undefined) return priceConflict(now, wrong);
  return conflict(
    `insufficient stock for product ${id} (${now.name}): ${now.stock} available, ${line.quantity} requested`,
  );
}

const unavailable = (product: Pick<CatalogueEntry, 'id' | 'name'>) =>
  badRequest(`product ${product.id} (${product.name}) is not available`);

const priceConflict = (product: Pick<CatalogueEntry, 'id' | 'name' | 'price'>, sent: number) =>
  conflict(
    `price of product ${product.id} (${product.name}) is ${product.price.toFixed(2)}, not ${new Decimal(sent).toFixed(Math.max(2, new Decimal(sent).decimalPlaces()))}`,
  );

export async function getOrder(db: Db, id: number): Promise<OrderDetail> {
  const order = await db.order.findUnique({
    where: { id },
    include: { items: { orderBy: [{ productId: 'asc' }, { id: 'asc' }] } },
  });
  if (!order) throw notFound(`Order ${id} not found`);
  return {
    id: order.id,
    customer_name: order.customerName,
    customer_email: order.customerEmail,
    total_amount: toMoneyNumber(order.totalAmount),
    status: order.status,
    created_at: order.createdAt.toISOString(),
    items: order.items.map((item) => ({
      product_id: item.productId,
      product_name: item.productName,
      quantity: item.quantity,
      price: toMoneyNumber(item.unitPrice),
      total_price: toMoneyNumber(item.totalPrice),
    })),
  };
}

/**
 * Applies a status change if the life cycle allows it, records it in the history and, on
 * cancellation, puts the stock back, all in one transaction. Returns the message to show.
 */
export const setOrderStatus = (db: Db, id: number, to: OrderStatus): Promise<string> =>
  db.$transaction(async (tx) => {
    // Each pass that loses the race sees a newer status; the life cycle has at most three
    // changes, so this ends after a few passes at most.
    for (;;) {
      const order = await tx.order.findUnique({ where: { id }, select: { status: true } });
      if (!order) throw notFound(`Order ${id} not found`);
      const from = order.status;
      const judgement = judgeStatusChange(from, to);
      if (judgement === 'unchanged') return `Order ${id} is already ${to}`;
      if (judgement === 'refused') {
        const allowed = allowedNextStatuses(from);
        throw conflict(
          `cannot change order ${id} from ${from} to ${to} (${from} allows: ${allowed.length ? allowed.join(', ') : 'no change'})`,
        );
      }
      // Conditional on the status just read: a concurrent change makes this match no row.
      const { count } = await tx.order.updateMany({
        where: { id, status: from },
        data: { status: to },
      });
      if (count === 0) continue;
      await tx.orderStatusChange.create({ data: { orderId: id, fromStatus: from, toStatus: to } });
      if (returnsStock(to)) await restock(tx, id);
      return `Order ${id} status changed from ${from} to ${to}`;
    }
  }, ORDER_TRANSACTION);

/** Ascending product id, the same lock order as placing an order. */
async function restock(tx: Tx, orderId: number): Promise<void> {
  const items = await tx.orderItem.findMany({
    where: { orderId },
    select: { productId: true, quantity: true },
    orderBy: { productId: 'asc' },
  });
  for (const item of items) {
    await tx.product.update({
      where: { id: item.productId },
      data: { stock: { increment: item.quantity } },
    });
  }
}
