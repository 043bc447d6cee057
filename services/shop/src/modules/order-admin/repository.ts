import type { AdminOrderSort, OrderStatus } from '@dogshop/contracts/shop';
import type { Db, Tx } from '../../db/client.js';
import type { KeysetPosition } from '../../domain/keyset.js';
import { likeLiteral } from '../../domain/text.js';
import { Prisma } from '../../generated/prisma/client.js';
import { actorColumns, type Actor } from '../audit/actor.js';

/** The back office's filter of orders (the list and its export). */
export interface OrderFilter {
  statuses?: OrderStatus[] | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  q?: string | undefined;
}

/** An order as the back office lists it (column names as the API's). */
export interface AdminOrderRow {
  id: number;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  customer_id: number | null;
  total_amount: string;
  status: OrderStatus;
  created_at: Date;
  updated_at: Date;
  items: number;
}

const MAX_ID = 2_147_483_647;

/**
 * A whole e-mail address: `q` then finds the orders of that address, case ignored, through the
 * `lower(customer_email)` index. Searching it as a part of `search_text` would find the same
 * orders (and those of a longer address containing it) but scans the trigram index's longest
 * lists: every address shares its domain's trigrams (1.3 s at a million orders of one domain).
 */
const WHOLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The filter as SQL on `orders o`: statuses, a time range, and `q` as the order's number, a whole
 * e-mail address, or a part of the customer's name, e-mail or phone (`search_text`, lower-cased,
 * one trigram index).
 */
function whereSql(filter: OrderFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (filter.statuses?.length) {
    conditions.push(Prisma.sql`o.status = ANY(${filter.statuses}::order_status[])`);
  }
  if (filter.createdFrom) conditions.push(Prisma.sql`o.created_at >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(Prisma.sql`o.created_at < ${filter.createdTo}`);
  if (filter.q !== undefined && WHOLE_EMAIL.test(filter.q)) {
    conditions.push(Prisma.sql`lower(o.customer_email) = lower(${filter.q})`);
  } else if (filter.q !== undefined) {
    const text = Prisma.sql`o.search_text LIKE lower(${`%${likeLiteral(filter.q)}%`})`;
    const number = /^\d{1,10}$/.test(filter.q) ? Number(filter.q) : 0;
    conditions.push(
      number >= 1 && number <= MAX_ID ? Prisma.sql`(o.id = ${number} OR ${text})` : text,
    );
  }
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
}

/** Each sort: its ORDER BY, the value a cursor keeps, and "after that position". */
const SORTS: Record<
  AdminOrderSort,
  { order: Prisma.Sql; value: Prisma.Sql; after: (p: KeysetPosition) => Prisma.Sql }
> = {
  '-created_at': {
    order: Prisma.sql`o.created_at DESC, o.id DESC`,
    value: Prisma.sql`o.created_at`,
    after: (p) => Prisma.sql`(o.created_at, o.id) < (${p.value}::timestamptz, ${p.id})`,
  },
  created_at: {
    order: Prisma.sql`o.created_at ASC, o.id ASC`,
    value: Prisma.sql`o.created_at`,
    after: (p) => Prisma.sql`(o.created_at, o.id) > (${p.value}::timestamptz, ${p.id})`,
  },
  '-total_amount': {
    order: Prisma.sql`o.total_amount DESC, o.id DESC`,
    value: Prisma.sql`o.total_amount`,
    after: (p) => Prisma.sql`(o.total_amount, o.id) < (${p.value}::numeric, ${p.id})`,
  },
};

const listColumns = Prisma.sql`o.id, o.customer_name, o.customer_email, o.customer_phone,
  o.customer_id, o.total_amount::text AS total_amount, o.status::text AS status, o.created_at,
  o.updated_at, (SELECT count(*)::int FROM order_items i WHERE i.order_id = o.id) AS items`;

/** A page of the filter in `sort` order after `after`, with each row's cursor value. */
export function findOrderPage(
  db: Db,
  filter: OrderFilter,
  sort: AdminOrderSort,
  take: number,
  after?: KeysetPosition,
): Promise<Array<AdminOrderRow & { position: string }>> {
  const where = whereSql(filter);
  const { order, value, after: afterSql } = SORTS[sort];
  const page = after
    ? where === Prisma.empty
      ? Prisma.sql`WHERE ${afterSql(after)}`
      : Prisma.sql`${where} AND ${afterSql(after)}`
    : where;
  return db.$queryRaw`
    SELECT ${listColumns}, ${value}::text AS position
      FROM orders o ${page}
     ORDER BY ${order}
     LIMIT ${take}`;
}

/**
 * The exact number of orders matching the filter. By status alone (or no filter) it is a sum of
 * the kept counts (`order_status_counts`, migration `*_order_status_counts`), whatever the number
 * of orders; with a time range or `q`, a count of the matches through the same indexes as the page.
 */
export async function countOrders(db: Db, filter: OrderFilter): Promise<number> {
  const [row] =
    filter.createdFrom === undefined && filter.createdTo === undefined && filter.q === undefined
      ? await db.$queryRaw<Array<{ total: number }>>`
          SELECT coalesce(sum(c.orders), 0)::int AS total FROM order_status_counts c
           ${filter.statuses?.length ? Prisma.sql`WHERE c.status = ANY(${filter.statuses}::order_status[])` : Prisma.empty}`
      : await db.$queryRaw<Array<{ total: number }>>`
          SELECT count(*)::int AS total FROM orders o ${whereSql(filter)}`;
  return row?.total ?? 0;
}

/**
 * Moves the kept counts of database backends that are gone (each writer adds to a row of its own)
 * into backend 0, so that the rows stay as many as the live backends. A backend whose rows are
 * moved is gone and writes no more; a new one with the same process id makes a new row.
 */
export async function foldOrderStatusCounts(db: Db): Promise<number> {
  return db.$executeRaw`
    WITH gone AS (
      DELETE FROM order_status_counts c
       WHERE c.backend <> 0
         AND NOT EXISTS (SELECT FROM pg_stat_activity a WHERE a.pid = c.backend)
      RETURNING c.status, c.orders
    )
    INSERT INTO order_status_counts (status, backend, orders)
    SELECT status, 0, sum(orders) FROM gone GROUP BY status
    ON CONFLICT (status, backend)
    DO UPDATE SET orders = order_status_counts.orders + EXCLUDED.orders`;
}

/** The filter's orders newest first, `batch` at a time (keyset), for a streamed export. */
export async function* orderBatches(
  db: Db,
  filter: OrderFilter,
  batch = 1_000,
): AsyncGenerator<AdminOrderRow[]> {
  let after: KeysetPosition | undefined;
  for (;;) {
    const rows = await findOrderPage(db, filter, '-created_at', batch, after);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    const last = rows.at(-1)!;
    after = { value: last.position, id: last.id };
  }
}

export const findOrderForAdmin = (db: Db | Tx, id: number) =>
  db.order.findUnique({
    where: { id },
    include: {
      items: { orderBy: [{ productId: 'asc' }, { id: 'asc' }] },
      history: { orderBy: [{ changedAt: 'asc' }, { id: 'asc' }] },
      notes: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    },
  });
export type OrderForAdmin = NonNullable<Awaited<ReturnType<typeof findOrderForAdmin>>>;

export const insertOrderNote = (db: Db | Tx, orderId: number, actor: Actor, text: string) =>
  db.orderNote.create({ data: { orderId, text, ...actorColumns(actor) } });

export const orderExists = async (db: Db | Tx, id: number) =>
  (await db.order.count({ where: { id } })) > 0;
