import type { Db } from '../../db/client.js';
import { PLAN_PER_CALL } from '../../db/prepared-statements.js';

/** One day's figures as the statement gives them: the revenue as exact decimal text. */
export interface SalesDayRow {
  date: string;
  orders: number;
  revenue: string;
}

/**
 * Orders and revenue per day from `from` to `to` (both `YYYY-MM-DD`, included), the days counted
 * in `timeZone`: every day of the range from generate_series (days without orders give zeros),
 * each order on the day its `created_at` falls in that zone. The range is bounded by the zone's
 * midnights (`day::timestamp AT TIME ZONE zone`: a daylight-saving day has 23 or 25 hours), so
 * the orders are found through the `created_at` index. The days are `timestamp` (without a
 * zone) throughout, so the session's time zone plays no part. Cancelled orders are left out.
 * Values are parameters only; planned per call (a range's best plan depends on its width).
 */
export function findSalesPerDay(
  db: Db,
  timeZone: string,
  from: string,
  to: string,
): Promise<SalesDayRow[]> {
  return db.$queryRaw`
    WITH placed AS (
      SELECT (o.created_at AT TIME ZONE ${timeZone})::date AS day,
             count(*)::int AS orders,
             sum(o.total_amount) AS revenue
        FROM orders o
       WHERE o.created_at >= (${from}::date::timestamp AT TIME ZONE ${timeZone})
         AND o.created_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone})
         AND o.status <> 'cancelled'
       GROUP BY 1
    )
    SELECT to_char(g.day, 'YYYY-MM-DD') AS date,
           coalesce(placed.orders, 0) AS orders,
           coalesce(placed.revenue, 0)::text AS revenue
      FROM generate_series(${from}::date::timestamp, ${to}::date::timestamp, interval '1 day')
             AS g(day)
      LEFT JOIN placed ON placed.day = g.day::date
     ORDER BY g.day ${PLAN_PER_CALL}`;
}

/**
 * What waits now: orders in `pending` (from the kept counts per status, whatever the number of
 * orders), active products with no stock. One statement.
 */
export async function countToDo(
  db: Db,
): Promise<{ pending_orders: number; products_out_of_stock: number }> {
  const [row] = await db.$queryRaw<
    Array<{ pending_orders: number; products_out_of_stock: number }>
  >`
    SELECT (SELECT coalesce(sum(orders), 0) FROM order_status_counts
             WHERE status = 'pending')::int AS pending_orders,
           (SELECT count(*) FROM products WHERE active AND stock = 0)::int
             AS products_out_of_stock`;
  return row ?? { pending_orders: 0, products_out_of_stock: 0 };
}
