import type { OrderStatus } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import { Decimal, toMoneyNumber } from '../../domain/money.js';
import { Prisma } from '../../generated/prisma/client.js';
import { actorColumns, type Actor } from '../audit/actor.js';
import { orderCreatedEvent, productOutOfStockEvent, type NewEvent } from '../events/builders.js';
import { eventsInsertSql } from '../events/repository.js';
import { lineTotal, orderTotal } from './order-lines.js';
import {
  answerSql,
  liveAnswerSql,
  type KeyedRequest,
  type StoredAnswer,
} from '../idempotency/repository.js';

/** What an order needs to know of a product it names. */
export interface CatalogueEntry {
  id: number;
  name: string;
  price: Decimal;
  active: boolean;
  stock: number;
}

/** The products named, as they are now (no locks): to explain why an order is refused. */
export const findCatalogueEntries = (db: Db, ids: number[]): Promise<CatalogueEntry[]> =>
  db.product.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, price: true, active: true, stock: true },
  });

export interface OrderToPlace {
  /** The signed-in customer who places it (its owner), or null for a guest. */
  customerId: number | null;
  /** The order's access token, shown once in the answer, and its SHA-256, stored. */
  accessToken: { token: string; hash: string };
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  status: OrderStatus;
  /** One line per product, ascending product id; `unitPrice` is the price the client agreed to. */
  lines: Array<{ productId: number; quantity: number; unitPrice: Decimal }>;
}

export type Placement =
  /** Placed, and with a key its answer stored: all in one statement, committed together. */
  | { outcome: 'placed'; orderId: number; total: Decimal }
  /** The catalogue refused it; nothing was written. The products as they were (locked). */
  | { outcome: 'refused'; catalogue: CatalogueEntry[] }
  /** The key already had a live answer when the statement began: nothing written or locked. */
  | { outcome: 'answered'; answer: StoredAnswer }
  /**
   * The catalogue accepted it, but a twin with the same key stored its answer first (committed
   * while this statement ran, so after its snapshot): nothing was written; the answer is to be
   * read in a statement of its own.
   */
  | { outcome: 'taken' };

/** How the statements return products and a stored answer (json: numerics as text). */
type CatalogueJson = Array<Omit<CatalogueEntry, 'price'> & { price: string }> | null;

const catalogueJson = (alias: Prisma.Sql) => Prisma.sql`json_agg(json_build_object(
  'id', ${alias}.id, 'name', ${alias}.name, 'price', ${alias}.price::text,
  'active', ${alias}.active, 'stock', ${alias}.stock) ORDER BY ${alias}.id)`;

const storedAnswerJson = Prisma.sql`(
  SELECT json_build_object('requestHash', e.request_hash, 'statusCode', e.status_code,
                           'body', e.response_body)
    FROM existing e)`;

const toCatalogue = (rows: CatalogueJson): CatalogueEntry[] =>
  (rows ?? []).map((p) => ({ ...p, price: new Decimal(p.price) }));

/**
 * The answer to a placed order as the Idempotency-Key stores it: `createdOrderAnswer` (mapper.ts)
 * built in SQL, since only the statement knows the order's id (the idempotency tests compare the
 * stored body with the response sent). `numbered` is the order's id and total, before the order
 * row is written: the answer is stored first, as the claim every other write depends on.
 */
const createdOrderAnswerJson = (order: OrderToPlace) => Prisma.sql`jsonb_build_object(
  'success', true,
  'data', jsonb_build_object('order_id', numbered.id, 'total_amount', trim_scale(numbered.total),
                             'access_token', ${order.accessToken.token}::text),
  'message', 'Order ' || numbered.id || ' created')`;

/** The events of a placed order, as placedOrderEventsSql writes them. */
interface PlacedOrderEvents {
  created: NewEvent<'order.created'>;
  /** One per line, in the lines' order: written for the products the order empties only. */
  soldOut: Array<NewEvent<'product.out_of_stock'>>;
}

/**
 * The events of an order about to be placed, made by their builders (events/builders.ts) from the
 * order as the statement stores it, but for what only the statement knows, which it binds in
 * (placedOrderEventsSql): the order's id (0 here) and the catalogue's product names ('' here).
 * Prices and totals are the client's, which the statement places only when they are the
 * catalogue's.
 */
function placedOrderEvents(order: OrderToPlace, at: Date): PlacedOrderEvents {
  const lineTotals = order.lines.map((line) => lineTotal(line.unitPrice, line.quantity));
  const created = orderCreatedEvent(
    {
      id: 0,
      customer_name: order.customerName,
      customer_email: order.customerEmail,
      total_amount: toMoneyNumber(orderTotal(lineTotals)),
      status: order.status,
      created_at: at.toISOString(),
      items: order.lines.map((line, i) => ({
        product_id: line.productId,
        product_name: '',
        quantity: line.quantity,
        price: toMoneyNumber(line.unitPrice),
        total_price: toMoneyNumber(lineTotals[i]!),
      })),
    },
    at,
  );
  const soldOut = order.lines.map((line) =>
    productOutOfStockEvent({ id: line.productId, name: '', stock: 0 }, null, at),
  );
  return { created, soldOut };
}

/**
 * placedOrderEvents with what only the statement knows bound in: the order's id (`placed`) and
 * each line's product name as the catalogue has it (`taken`); `product.out_of_stock` only for the
 * products the order empties (`w.sold_out`: the line's, passed with `wanted`). Ranked:
 * order.created first, then by product id.
 */
const placedOrderEventsSql = (events: PlacedOrderEvents) => Prisma.sql`
        SELECT 0, ${events.created.type}::text,
               c.data || jsonb_build_object(
                 'id', placed.id,
                 'items', (SELECT jsonb_agg(i.item || jsonb_build_object('product_name', t.name)
                                            ORDER BY i.n)
                             FROM jsonb_array_elements(c.data -> 'items') WITH ORDINALITY i(item, n)
                             JOIN taken t ON t.id = (i.item ->> 'product_id')::int))
          FROM placed
         CROSS JOIN (SELECT ${JSON.stringify(events.created.data)}::jsonb AS data) c
        UNION ALL
        SELECT t.id, 'product.out_of_stock', w.sold_out::jsonb || jsonb_build_object('name', t.name)
          FROM taken t
          JOIN wanted w ON w.product_id = t.id
         WHERE t.stock = 0`;

/**
 * Places the order if the catalogue accepts it as it stands, in ONE statement (its own
 * transaction, one round trip): every product exists, is active, has `unitPrice` as its price and
 * at least `quantity` in stock; with an Idempotency-Key, only if the key has no answer yet, and
 * then the key's answer is stored by the same statement.
 *
 * 1. `existing` (with a key): the key's live answer in the statement's snapshot. When there is
 *    one, nothing below locks or writes anything (`locked` is empty, so `verdict` refuses) and
 *    the statement returns it to be replayed (or 422 for another body).
 * 2. `locked` locks the named products in ascending id (the order every writer of stock uses, so
 *    orders never wait on each other in a cycle) and reads them as they are once locked: a row a
 *    concurrent order changed is waited for and read in its committed version (READ COMMITTED
 *    re-reads a row its lock had to wait for), also when that order committed after this
 *    statement's snapshot.
 * 3. `verdict` judges every line on those locked rows. Nobody else can change them before this
 *    statement commits, so the judgement holds for the writes that follow.
 *    `taken` therefore sets each stock to the locked row's stock less the quantity, never to
 *    `p.stock - quantity`: its UPDATE finds the row as the statement's snapshot has it, and
 *    PostgreSQL checks a new row's CHECK constraints on what SET makes of that version before it
 *    notices the row changed since and recomputes from the latest one (EvalPlanQual). When stock
 *    came back after the snapshot (a cancellation or an adjustment committed while this statement
 *    waited for the lock), `p.stock - quantity` would be computed from the old, lower stock and
 *    fail products_stock_nonnegative (a 500) for an order the locked stock fills. (A condition
 *    on `p.stock` in its WHERE would be judged on that old version first too, and skip the row.)
 *    The locked value is the latest version's, and stays so until this statement commits.
 * 4. Only when it accepts: `numbered` draws the order's id, and (with a key) `claim` stores the
 *    answer on the key: INSERT … ON CONFLICT (answerSql). Every other write (`taken`, `placed`,
 *    `items`, `history`, `movements`) is gated on `claim` having returned a row (without a key, on `numbered`):
 *    one subquery evaluated once, before any of them writes a row, never each row's own
 *    condition, since a CTE cannot undo a sibling's write. `events` writes `order.created` and,
 *    for each product the order empties, `product.out_of_stock`, as their builders made them
 *    with the order's id and the catalogue's names bound in from `placed` and `taken`, so only
 *    for an order placed (placedOrderEventsSql). So the order, its events and its answer are written together or
 *    not at all, and any failing write (the stock CHECK constraint, a
 *    trigger) fails the whole statement, the key's row included.
 *
 * Why a key places at most one order, under concurrency and crashes (READ COMMITTED):
 * - `existing` sees only what was committed when the statement began; an answer committed later
 *   is invisible to it. The primary key of idempotency_keys is what decides: the claim's INSERT
 *   sees every committed row and waits for an uncommitted one, so of two statements with the
 *   same key only one can store its answer; the other's claim returns no row and it writes
 *   nothing ('taken').
 * - A twin (same key and body) arriving while the first runs takes its snapshot without the
 *   first's answer, then waits for the first's product locks in `locked`. When the first
 *   commits, the twin reads the products as the first left them and, if it accepts, its claim
 *   conflicts with the committed answer: 'taken', and the service replays that answer (a second
 *   statement, whose new snapshot sees it). If the twin refuses instead (the first took the last
 *   of the stock), the service's attempt to store the refusal conflicts the same way and the
 *   first's answer is replayed (idempotency/service.ts, storeRefusal).
 * - Twins with different bodies may lock different products; the second then waits in its
 *   claim's INSERT for the first's uncommitted key row, and conflicts once it commits (422).
 *   No deadlock: a statement inserts its key only after it holds all its product locks and then
 *   waits for no product lock again, so a statement waiting for a key never holds up the key's
 *   holder.
 * - A twin that begins after the first committed finds its answer in `existing`: replayed at
 *   once, one statement, no lock taken.
 * - A request that dies (its process killed, its connection lost) before its statement commits
 *   leaves nothing: the statement is its own transaction, the key's row is one of its writes,
 *   and the rollback removes them all. Its locks go with it, so a twin that was waiting proceeds
 *   at once and, finding no answer, places (or refuses) the order itself. Dying after the commit
 *   leaves the complete answer, which the retry replays. A one-statement transaction ends as the
 *   statement does (committed, or rolled back when its session ends); it is never left open,
 *   holding locks, for a client that is gone. So there is no committed "in progress" state for a
 *   retry to find: a key's row always carries the answer to replay.
 *
 * Refused, it returns the locked rows so that the service can say why.
 */
export async function placeOrderIfAccepted(
  db: Db | Tx,
  order: OrderToPlace,
  key?: KeyedRequest,
): Promise<Placement> {
  const ids = order.lines.map((l) => l.productId);
  // The app's clock, as Prisma's own writes (and the later status changes) use it.
  const at = key?.now ?? new Date();
  const now = Prisma.sql`${at.toISOString()}::timestamptz`;
  const events = placedOrderEvents(order, at);
  const keyed = key
    ? {
        existing: Prisma.sql`existing AS MATERIALIZED (${liveAnswerSql(key)}),`,
        unanswered: Prisma.sql`AND NOT EXISTS (SELECT FROM existing)`,
        claim: Prisma.sql`, claim AS (${answerSql(
          key,
          { statusCode: 201, body: createdOrderAnswerJson(order) },
          Prisma.sql`numbered`,
        )})`,
        gate: Prisma.sql`EXISTS (SELECT FROM claim)`,
        answer: storedAnswerJson,
      }
    : {
        existing: Prisma.empty,
        unanswered: Prisma.empty,
        claim: Prisma.empty,
        gate: Prisma.sql`EXISTS (SELECT FROM numbered)`,
        answer: Prisma.sql`NULL::json`,
      };
  const [row] = await db.$queryRaw<
    Array<{
      orderId: number | null;
      total: string | null;
      accepted: boolean;
      answer: StoredAnswer | null;
      catalogue: CatalogueJson;
    }>
  >`
    WITH ${keyed.existing} wanted AS (
      SELECT * FROM unnest(
        ${ids}::int[],
        ${order.lines.map((l) => l.quantity)}::int[],
        ${order.lines.map((l) => l.unitPrice.toFixed())}::numeric[],
        ${events.soldOut.map((e) => JSON.stringify(e.data))}::text[]
      ) AS w(product_id, quantity, unit_price, sold_out)
    ), locked AS MATERIALIZED (
      SELECT p.id, p.name, p.price, p.active, p.stock
        FROM products p
       WHERE p.id = ANY(${ids}::int[]) ${keyed.unanswered}
       ORDER BY p.id
         FOR NO KEY UPDATE
    ), verdict AS MATERIALIZED (
      SELECT count(*) = ${order.lines.length}::int AS accepted,
             sum(l.price * w.quantity) AS total
        FROM wanted w
        JOIN locked l ON l.id = w.product_id
       WHERE l.active AND l.price = w.unit_price AND l.stock >= w.quantity
    ), numbered AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('orders', 'id'))::int AS id,
             v.total::numeric(12, 2) AS total
        FROM verdict v
       WHERE v.accepted
    )${keyed.claim}, taken AS (
      UPDATE products p
         SET stock = l.stock - w.quantity, updated_at = ${now}
        FROM wanted w
        JOIN locked l ON l.id = w.product_id
       WHERE p.id = w.product_id AND ${keyed.gate}
      RETURNING p.id, p.name, p.price, w.quantity, p.stock
    ), placed AS (
      INSERT INTO orders (id, customer_name, customer_email, customer_phone, total_amount, status,
                          created_at, updated_at, customer_id, access_token_hash)
      SELECT n.id, ${order.customerName}, ${order.customerEmail}, ${order.customerPhone}, n.total,
             ${order.status}::order_status, ${now}, ${now}, ${order.customerId}::int,
             ${order.accessToken.hash}
        FROM numbered n
       WHERE ${keyed.gate}
      RETURNING id, total_amount, status
    ), items AS (
      INSERT INTO order_items (order_id, product_id, product_name, quantity, unit_price,
                               total_price)
      SELECT placed.id, t.id, t.name, t.quantity, t.price, t.price * t.quantity
        FROM placed CROSS JOIN taken t
    ), history AS (
      INSERT INTO order_status_history (order_id, from_status, to_status, changed_at)
      SELECT placed.id, NULL, placed.status, ${now} FROM placed
    ), movements AS (
      INSERT INTO stock_movements (product_id, kind, delta, stock, order_id, created_at,
                                   actor_type, actor_id, actor_name)
      SELECT t.id, 'order', -t.quantity, t.stock, placed.id, ${now},
             CASE WHEN ${order.customerId}::int IS NULL THEN NULL ELSE 'customer' END,
             ${order.customerId}::int,
             CASE WHEN ${order.customerId}::int IS NULL THEN NULL ELSE ${order.customerEmail} END
        FROM placed CROSS JOIN taken t
    ), events AS (${eventsInsertSql(placedOrderEventsSql(events), now)}
    )
    SELECT placed.id AS "orderId", placed.total_amount::text AS total, v.accepted,
           ${keyed.answer} AS answer,
           CASE WHEN NOT v.accepted THEN (SELECT ${catalogueJson(Prisma.sql`l`)} FROM locked l)
           END AS catalogue
      FROM verdict v
      LEFT JOIN placed ON true`;
  if (!row) throw new Error('the order statement returned no row');
  if (row.answer) return { outcome: 'answered', answer: row.answer };
  if (row.orderId !== null && row.total !== null) {
    return { outcome: 'placed', orderId: row.orderId, total: new Decimal(row.total) };
  }
  if (!row.accepted) return { outcome: 'refused', catalogue: toCatalogue(row.catalogue) };
  if (key) return { outcome: 'taken' };
  throw new Error('the order statement accepted an order without placing it');
}

/**
 * For an order that cannot be placed at all (its sent prices cannot all be right), with a key:
 * the key's live answer if it has one, else the products named, as they are now (no locks), to
 * say why it is refused. One statement, so that a replay is one round trip here too.
 */
export async function findAnswerOrCatalogue(
  db: Db | Tx,
  ids: number[],
  key: KeyedRequest,
): Promise<Extract<Placement, { outcome: 'answered' | 'refused' }>> {
  const [row] = await db.$queryRaw<
    Array<{ answer: StoredAnswer | null; catalogue: CatalogueJson }>
  >`
    WITH existing AS MATERIALIZED (${liveAnswerSql(key)})
    SELECT ${storedAnswerJson} AS answer,
           (SELECT ${catalogueJson(Prisma.sql`p`)}
              FROM products p
             WHERE p.id = ANY(${ids}::int[]) AND NOT EXISTS (SELECT FROM existing)) AS catalogue`;
  if (row?.answer) return { outcome: 'answered', answer: row.answer };
  return { outcome: 'refused', catalogue: toCatalogue(row?.catalogue ?? null) };
}

export async function recordStatusChange(
  tx: Tx,
  orderId: number,
  from: OrderStatus | null,
  to: OrderStatus,
  by: { actor: Actor | null; note?: string | undefined },
): Promise<void> {
  await tx.orderStatusChange.create({
    data: {
      orderId,
      fromStatus: from,
      toStatus: to,
      note: by.note ?? null,
      ...(by.actor ? actorColumns(by.actor) : {}),
    },
    select: { id: true },
  });
}

export const findOrderWithItems = (db: Db | Tx, id: number) =>
  db.order.findUnique({
    where: { id },
    include: { items: { orderBy: [{ productId: 'asc' }, { id: 'asc' }] } },
  });

export type OrderWithItems = NonNullable<Awaited<ReturnType<typeof findOrderWithItems>>>;

/** A customer's orders with their items, newest first (ties by id), after `after`, `take` of them. */
export const findCustomerOrders = (
  db: Db,
  customerId: number,
  take: number,
  after?: { createdAt: Date; id: number },
) =>
  db.order.findMany({
    where: {
      customerId,
      ...(after
        ? {
            OR: [
              { createdAt: { lt: after.createdAt } },
              { createdAt: after.createdAt, id: { lt: after.id } },
            ],
          }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    include: { items: { orderBy: [{ productId: 'asc' }, { id: 'asc' }] } },
  });

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

/** Puts `quantity` back; returns the product's name and its stock after. */
export const returnStock = (
  tx: Tx,
  productId: number,
  quantity: number,
): Promise<{ id: number; name: string; stock: number }> =>
  tx.product.update({
    where: { id: productId },
    data: { stock: { increment: quantity } },
    select: { id: true, name: true, stock: true },
  });
