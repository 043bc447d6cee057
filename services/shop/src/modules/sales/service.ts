import {
  DEFAULT_SALES_DAYS,
  MAX_SALES_DAYS,
  type SalesFigures,
  type SalesQuery,
} from '@dogshop/contracts/shop';
import { badRequest } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { Decimal, toMoneyNumber } from '../../domain/money.js';
import { countToDo, findSalesPerDay } from './repository.js';

const DAY_MS = 86_400_000;

/** Today's date (`YYYY-MM-DD`) in `timeZone`. */
export const todayIn = (timeZone: string, now = new Date()): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

/** A calendar date moved by whole days (no time zone involved: dates, not instants). */
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const daysBetween = (from: string, to: string): number =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;

/**
 * The range of a request: `to` defaults to today in the shop's time zone, `from` to the
 * `DEFAULT_SALES_DAYS` days ending at `to`; `from` after `to`, or more than `MAX_SALES_DAYS`
 * days, is 400.
 */
export function salesRange(query: SalesQuery, timeZone: string, now = new Date()) {
  const to = query.to ?? todayIn(timeZone, now);
  const from = query.from ?? addDays(to, -(DEFAULT_SALES_DAYS - 1));
  const span = daysBetween(from, to);
  if (span < 0) throw badRequest(`querystring.from (${from}) is after querystring.to (${to})`);
  if (span + 1 > MAX_SALES_DAYS) {
    throw badRequest(
      `the range is longer than ${MAX_SALES_DAYS} days (from ${from} to ${to}, ${span + 1} days)`,
    );
  }
  return { from, to };
}

/** Orders and revenue per day of the range in the shop's time zone, and today's to-do counts. */
export async function salesFigures(
  db: Db,
  timeZone: string,
  query: SalesQuery,
): Promise<SalesFigures> {
  const { from, to } = salesRange(query, timeZone);
  const [days, todo] = await Promise.all([findSalesPerDay(db, timeZone, from, to), countToDo(db)]);
  // Exact sums of the exact per-day sums, rendered once.
  const revenue = days.reduce((sum, day) => sum.plus(day.revenue), new Decimal(0));
  return {
    from,
    to,
    time_zone: timeZone,
    days: days.map((day) => ({
      date: day.date,
      orders: day.orders,
      revenue: toMoneyNumber(day.revenue),
    })),
    totals: {
      orders: days.reduce((sum, day) => sum + day.orders, 0),
      revenue: toMoneyNumber(revenue),
    },
    todo,
  };
}
