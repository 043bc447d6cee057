import type {
  CreateOrderBody,
  CreateOrderResponse,
  CreatedOrder,
  OrderDetail,
  OrderStatus,
} from '@dogshop/contracts/shop';
import { conflict, notFound, type HttpError } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { retryingConflicts } from '../../db/prisma-errors.js';
import { decodeCursor, encodeCursor } from '../../domain/cursor.js';
import { orderStatusChangedEvent, productBackInStockEvent } from '../events/builders.js';
import { insertEvents } from '../events/repository.js';
import { eventsCommitted, writeEvents } from '../events/service.js';
import type { Actor } from '../audit/actor.js';
import { insertMovement } from '../stock/repository.js';
import { insertAuditEntry } from '../audit/repository.js';
import { Decimal, sameCents, toMoneyNumber } from '../../domain/money.js';
import { optionalText, requiredText } from '../../domain/text.js';
import {
  answered,
  keyedRequest,
  replay,
  storeRefusal,
  type KeyedRequest,
  type StoredAnswer,
} from '../idempotency/service.js';
import { isOrderToken, newOrderAccessToken } from './access-token.js';
import { orderToDto } from './mapper.js';
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
  outOfStock,
  priceConflict,
  totalTooHigh,
  unavailable,
  unknownProduct,
} from './refusals.js';
import {
  changeStatusIf,
  findAnswerOrCatalogue,
  findCatalogueEntries,
  findOrderLines,
  findOrderStatus,
  findCustomerOrders,
  findOrderWithItems,
  placeOrderIfAccepted,
  recordStatusChange,
  returnStock,
  type CatalogueEntry,
  type OrderToPlace,
  type Placement,
} from './repository.js';

/** Order transactions touch a few rows; waiting for a pooled connection may take longer under load. */
const ORDER_TRANSACTION = { maxWait: 10_000, timeout: 10_000 } as const;

/**
 * How often a keyed request runs again when the answer that beat it vanished before it could
 * read it (expired and taken over, or deleted, between two statements): practically never.
 */
const KEYED_ATTEMPTS = 3;

/**
 * Places an order (one statement; see placeOrderIfAccepted). With an `Idempotency-Key`, the same
 * key and body within 24 hours replay the first answer instead (`replayed`; a refusal is thrown
 * again as it was; another body is 422). The key's answer is stored by the order's own statement,
 * or for a refusal by one INSERT of the finished answer: nothing ever says "in progress", so a
 * request that died leaves nothing behind and its retry runs at once. Statements: placed or
 * replayed 1; refused 2 (the answer stored); a twin that waited for the first 2 (the first's
 * answer read); a twin refused after the first took the stock 3.
 */
export async function createOrder(
  db: Db,
  body: CreateOrderBody,
  idempotencyKey?: string,
  customerId: number | null = null,
): Promise<{ order: CreatedOrder; replayed: boolean }> {
  const order = sentOrder(body, customerId);
  if (idempotencyKey === undefined) {
    const placement = await place(db, order);
    if (placement.outcome === 'placed') {
      return { order: created(placement, order), replayed: false };
    }
    if (placement.outcome === 'refused') throw refusalOf(order, placement.catalogue);
    throw new Error(`the order statement answered ${placement.outcome} without a key`);
  }
  const request = keyedRequest(idempotencyKey, body);
  for (let attempt = 0; attempt < KEYED_ATTEMPTS; attempt++) {
    const placement = await place(db, order, request);
    switch (placement.outcome) {
      case 'placed':
        return { order: created(placement, order), replayed: false };
      case 'answered':
        return replayed(request, placement.answer);
      case 'refused': {
        // Nothing was written: store the refusal as the key's answer, unless a twin's came first.
        const error = refusalOf(order, placement.catalogue);
        const first = await storeRefusal(db, request, error);
        if (first === null) throw error;
        return replayed(request, first);
      }
      case 'taken': {
        // A twin's answer was committed while the statement ran: it is the answer to replay.
        const first = await answered(db, request);
        if (first) return replayed(request, first);
        break; // it vanished meanwhile: run the request again
      }
    }
  }
  throw new Error(`the answer of Idempotency-Key ${idempotencyKey} keeps vanishing`);
}

const created = (
  placement: { orderId: number; total: Decimal },
  order: SentOrder,
): CreatedOrder => ({
  order_id: placement.orderId,
  total_amount: toMoneyNumber(placement.total),
  access_token: order.fields.accessToken.token,
});

const replayed = (request: KeyedRequest, stored: StoredAnswer) => ({
  order: replay<CreateOrderResponse>(request, stored).data,
  replayed: true,
});

/** An order as sent, checked (400 for a blank name) and with its lines merged. */
interface SentOrder {
  fields: Omit<OrderToPlace, 'lines'>;
  lines: MergedLine[];
  /** The unit price of each line, or null when the sent prices cannot all be right. */
  prices: Decimal[] | null;
}

const sentOrder = (body: CreateOrderBody, customerId: number | null): SentOrder => {
  const customerName = requiredText(body.customer_name, 'body.customer_name');
  const lines = mergeLines(body.items);
  return {
    fields: {
      customerId,
      accessToken: newOrderAccessToken(),
      customerName,
      customerEmail: body.customer_email,
      customerPhone: optionalText(body.customer_phone) ?? '',
      status: INITIAL_ORDER_STATUS,
    },
    lines,
    prices: agreedPrices(lines),
  };
};

/**
 * Products must exist and be active (400), every sent price must be the catalogue's (409), the
 * total must not exceed the maximum (400), and the stock must suffice (409); each refusal writes
 * nothing. One round trip: a statement that checks and writes atomically (placeOrderIfAccepted)
 * when the sent prices can be right at all, else a read of the catalogue (and the key's answer)
 * to say which rule the order breaks. Either way the refusal is chosen by `refusalOf`, in the
 * same order of precedence.
 */
async function place(db: Db, order: SentOrder, request?: KeyedRequest): Promise<Placement> {
  const { prices } = order;
  if (!prices) {
    const ids = order.lines.map((l) => l.productId);
    return request
      ? findAnswerOrCatalogue(db, ids, request)
      : { outcome: 'refused', catalogue: await findCatalogueEntries(db, ids) };
  }
  const toPlace = {
    ...order.fields,
    lines: order.lines.map((line, i) => ({
      productId: line.productId,
      quantity: line.quantity,
      unitPrice: prices[i]!,
    })),
  };
  // The statement is its own transaction: when PostgreSQL rolls it back to break a deadlock
  // (a lock cycle with another transaction that holds a product this order waits for), nothing
  // of it remains, and it runs again.
  const placement = await retryingConflicts(() => placeOrderIfAccepted(db, toPlace, request));
  // Its events committed with it (the statement is its own transaction).
  if (placement.outcome === 'placed') eventsCommitted(db);
  return placement;
}

/** Why the catalogue refused the order (it refused it, so one of its rules must say why). */
function refusalOf(order: SentOrder, catalogue: CatalogueEntry[]): HttpError {
  const refused = refusal(order.lines, catalogue);
  if (refused) return refused;
  throw new Error(
    order.prices
      ? 'the order statement refused an order the rules accept'
      : 'the catalogue accepts prices that cannot all be right',
  );
}

/**
 * The unit price of each line if the order can be accepted at all: every price sent for a product
 * is the same amount, and their total is within the maximum (the catalogue's prices must equal
 * them). Null when it cannot; the catalogue then only has to say why.
 */
function agreedPrices(lines: readonly MergedLine[]): Decimal[] | null {
  const prices: Decimal[] = [];
  for (const line of lines) {
    const [first, ...others] = line.sentPrices.map((sent) => new Decimal(sent));
    if (!first || others.some((price) => !price.equals(first))) return null;
    prices.push(first);
  }
  const total = orderTotal(lines.map((line, i) => lineTotal(prices[i]!, line.quantity)));
  return total.greaterThan(MAX_ORDER_TOTAL) ? null : prices;
}

/**
 * Why the catalogue refuses these lines, or null when it accepts them. Precedence: an unknown or
 * inactive product, then a wrong price, then a total over the maximum, then too little stock;
 * within each, the first line in ascending product id (and the first wrong price as sent).
 */
function refusal(lines: readonly MergedLine[], catalogue: CatalogueEntry[]): HttpError | null {
  const byId = new Map(catalogue.map((p) => [p.id, p]));
  const entries: Array<{ line: MergedLine; product: CatalogueEntry }> = [];
  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product) return unknownProduct(line.productId);
    if (!product.active) return unavailable(product);
    entries.push({ line, product });
  }
  for (const { line, product } of entries) {
    const wrong = line.sentPrices.find((sent) => !sameCents(product.price, sent));
    if (wrong !== undefined) return priceConflict(product, wrong);
  }
  const total = orderTotal(
    entries.map(({ line, product }) => lineTotal(product.price, line.quantity)),
  );
  if (total.greaterThan(MAX_ORDER_TOTAL)) return totalTooHigh(total);
  const short = entries.find(({ line, product }) => product.stock < line.quantity);
  return short ? outOfStock(short.product, short.line.quantity) : null;
}

export async function getOrder(db: Db, id: number): Promise<OrderDetail> {
  const order = await findOrderWithItems(db, id);
  if (!order) throw notFound(`Order ${id} not found`);
  return orderToDto(order);
}

/** A page of a customer's own orders, newest first, and where the next page starts. */
export async function listCustomerOrders(
  db: Db,
  customerId: number,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ orders: OrderDetail[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = await findCustomerOrders(db, customerId, page.limit + 1, after);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    orders: shown.map(orderToDto),
    nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null,
  };
}

/** Who asks for an order through the storefront API, and what proves it may see it. */
export interface OrderReader {
  /** A secret key with `orders:read`: any order, as before key kinds. */
  readsAny: boolean;
  /** The signed-in customer: their own orders. */
  customerId: number | null;
  /** `X-Order-Token`: the order it belongs to. */
  orderToken: string | undefined;
}

/**
 * The order if this reader may see it. A wrong or missing token, another customer's order and an
 * order that does not exist all answer the same 404, so a storefront's key tells nothing about
 * which orders exist.
 */
export async function getOrderFor(db: Db, id: number, reader: OrderReader): Promise<OrderDetail> {
  const order = await findOrderWithItems(db, id);
  const allowed =
    order !== null &&
    (reader.readsAny ||
      (reader.customerId !== null && order.customerId === reader.customerId) ||
      isOrderToken(order.accessTokenHash, reader.orderToken));
  if (!allowed) throw notFound(`Order ${id} not found`);
  return orderToDto(order);
}

/**
 * Applies a status change if the life cycle allows it, records it in the history and, on
 * cancellation, puts the stock back, all in one transaction. Returns the message to show.
 */
export const setOrderStatus = (
  db: Db,
  id: number,
  to: OrderStatus,
  by: StatusChangeBy = { actor: null },
): Promise<string> =>
  // A run PostgreSQL rolled back to break a deadlock (a cancellation waits for products another
  // transaction holds) runs again from its first read.
  retryingConflicts(() => changeStatus(db, id, to, by));

/** Who changes a status (the history, the event and the audit name them), and their note. */
export interface StatusChangeBy {
  actor: Actor | null;
  note?: string | undefined;
}

const changeStatus = (db: Db, id: number, to: OrderStatus, by: StatusChangeBy): Promise<string> =>
  writeEvents(
    db,
    async (tx) => {
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
        const at = new Date();
        await recordStatusChange(tx, id, from, to, by);
        if (by.actor) {
          await insertAuditEntry(tx, by.actor, {
            action: 'order.status',
            resource: 'order',
            resourceId: id,
            before: { status: from },
            after: { status: to, ...(by.note ? { note: by.note } : {}) },
          });
        }
        const restocked = returnsStock(to) ? await restock(tx, id, by.actor) : [];
        const order = await findOrderWithItems(tx, id);
        if (!order) throw new Error(`order ${id} vanished while its status changed`);
        // Written in this transaction: they exist exactly when the change is committed.
        await insertEvents(tx, [
          orderStatusChangedEvent({ from, to, order: orderToDto(order), actor: by.actor }, at),
          ...restocked
            .filter((p) => p.stock === p.returned)
            .map((p) => productBackInStockEvent(p, by.actor, at)),
        ]);
        return `Order ${id} status changed from ${from} to ${to}`;
      }
    },
    ORDER_TRANSACTION,
  );

/**
 * Ascending product id, the same lock order as placing an order; each return is a
 * `cancellation` stock movement. Returns each product's stock after and the quantity returned
 * (equal: it was out of stock).
 */
async function restock(
  tx: Tx,
  orderId: number,
  actor: Actor | null,
): Promise<Array<{ id: number; name: string; stock: number; returned: number }>> {
  const restocked = [];
  for (const line of await findOrderLines(tx, orderId)) {
    const product = await returnStock(tx, line.productId, line.quantity);
    await insertMovement(tx, {
      productId: product.id,
      kind: 'cancellation',
      delta: line.quantity,
      stock: product.stock,
      orderId,
      actor,
    });
    restocked.push({ ...product, returned: line.quantity });
  }
  return restocked;
}
