import type {
  CreateOrderBody,
  CreatedOrder,
  OrderDetail,
  OrderStatus,
} from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound, type HttpError } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { Decimal, sameCents, toMoneyNumber } from '../../domain/money.js';
import { optionalText, requiredText } from '../../domain/text.js';
import { withIdempotency } from '../idempotency/service.js';
import { createdOrderAnswer, orderToDto } from './mapper.js';
import {
  MAX_ORDER_TOTAL,
  lineTotal,
  mergeLines,
  orderTotal,
  type MergedLine,
} from './order-lines.js';
import {
  INITIAL_ORDER_STATUS,
  allowedNextStatuses,
  judgeStatusChange,
  returnsStock,
} from './order-status.js';
import {
  changeStatusIf,
  findCatalogueEntries,
  findOrderLines,
  findOrderStatus,
  findOrderWithItems,
  findProductState,
  insertOrder,
  insertOrderItems,
  recordStatusChange,
  returnStock,
  takeStock,
  type CatalogueEntry,
} from './repository.js';

/** Order transactions touch a few rows; waiting for a pooled connection may take longer under load. */
const ORDER_TRANSACTION = { maxWait: 10_000, timeout: 10_000 } as const;

/**
 * Places an order in one transaction. With an `Idempotency-Key`, the same key and body within 24
 * hours replay the first answer instead (`replayed`; a refusal is thrown again as it was).
 */
export async function createOrder(
  db: Db,
  body: CreateOrderBody,
  idempotencyKey?: string,
): Promise<{ order: CreatedOrder; replayed: boolean }> {
  if (idempotencyKey === undefined) {
    const order = await db.$transaction((tx) => placeOrder(tx, body), ORDER_TRANSACTION);
    return { order, replayed: false };
  }
  const outcome = await withIdempotency(
    db,
    idempotencyKey,
    body,
    async (tx) => createdOrderAnswer(await placeOrder(tx, body)),
    { statusCode: 201, transaction: ORDER_TRANSACTION },
  );
  return { order: outcome.body.data, replayed: outcome.replayed };
}

/**
 * Validates the order against the catalogue, reserves the stock and writes the order, all on the
 * caller's transaction: any refusal rolls everything back. Products must exist and be active
 * (400), every sent price must be the catalogue's (409), and the stock must suffice (409).
 */
async function placeOrder(tx: Tx, body: CreateOrderBody): Promise<CreatedOrder> {
  const customerName = requiredText(body.customer_name, 'body.customer_name');
  const lines = mergeLines(body.items);
  const catalogue = await findCatalogueEntries(
    tx,
    lines.map((l) => l.productId),
  );
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
  const orderId = await insertOrder(tx, {
    customerName,
    customerEmail: body.customer_email,
    customerPhone: optionalText(body.customer_phone) ?? '',
    totalAmount: total,
    status: INITIAL_ORDER_STATUS,
  });
  await insertOrderItems(
    tx,
    orderId,
    entries.map(({ line, product }, i) => ({
      productId: product.id,
      productName: names[i]!,
      quantity: line.quantity,
      unitPrice: product.price,
      totalPrice: totals[i]!,
    })),
  );
  await recordStatusChange(tx, orderId, null, INITIAL_ORDER_STATUS);
  return { order_id: orderId, total_amount: toMoneyNumber(total) };
}

/** Reserves a line's stock; returns the product's name at that moment, which the order keeps. */
async function reserveStock(tx: Tx, line: MergedLine, product: CatalogueEntry): Promise<string> {
  const name = await takeStock(tx, product, line.quantity);
  if (name !== null) return name;
  throw await whyNotReserved(tx, line, product.id);
}

async function whyNotReserved(tx: Tx, line: MergedLine, id: number): Promise<HttpError> {
  const now = await findProductState(tx, id);
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
  const order = await findOrderWithItems(db, id);
  if (!order) throw notFound(`Order ${id} not found`);
  return orderToDto(order);
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
      const from = await findOrderStatus(tx, id);
      if (from === null) throw notFound(`Order ${id} not found`);
      const judgement = judgeStatusChange(from, to);
      if (judgement === 'unchanged') return `Order ${id} is already ${to}`;
      if (judgement === 'refused') {
        const allowed = allowedNextStatuses(from);
        throw conflict(
          `cannot change order ${id} from ${from} to ${to} (${from} allows: ${allowed.length ? allowed.join(', ') : 'no change'})`,
        );
      }
      if (!(await changeStatusIf(tx, id, from, to))) continue;
      await recordStatusChange(tx, id, from, to);
      if (returnsStock(to)) await restock(tx, id);
      return `Order ${id} status changed from ${from} to ${to}`;
    }
  }, ORDER_TRANSACTION);

/** Ascending product id, the same lock order as placing an order. */
async function restock(tx: Tx, orderId: number): Promise<void> {
  for (const line of await findOrderLines(tx, orderId)) {
    await returnStock(tx, line.productId, line.quantity);
  }
}
