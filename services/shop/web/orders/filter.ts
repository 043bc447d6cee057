// The orders list's filter as the API takes it, for the list, its status counts and the export.
import { outcome, type Api, type OrderStatus, type Outcome } from '../lib/api';
import { STATUSES } from '../lib/format';

export interface OrderFilter {
  status?: OrderStatus | undefined;
  q?: string | undefined;
  /** Days (`2026-11-28`) in the browser's time zone, both included. */
  from?: string | undefined;
  to?: string | undefined;
}

/** The start of a day in the browser's time zone, as the API's date-time. */
const startOf = (day: string) => new Date(`${day}T00:00:00`).toISOString();

/** The end of a day (the start of the next): `created_to` takes the last instant included. */
const endOf = (day: string) => {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return new Date(next.getTime() - 1).toISOString();
};

/** The filter as the list's query parameters (the export's too, without `limit`). */
export function filterQuery(filter: OrderFilter) {
  return {
    ...(filter.status && { status: [filter.status] }),
    ...(filter.q && { q: filter.q }),
    ...(filter.from && { created_from: startOf(filter.from) }),
    ...(filter.to && { created_to: endOf(filter.to) }),
  };
}

export const orderQuery = (filter: OrderFilter, limit: number) => ({
  ...filterQuery(filter),
  limit,
});

export type StatusCounts = Record<OrderStatus | 'all', number>;

/**
 * How many orders each status has for the filter's search and dates (its status aside: each
 * button shows its own), one request a status for a page of one row: the totals are exact and,
 * without a search, kept per status by the database.
 */
export async function statusCounts(api: Api, filter: OrderFilter): Promise<Outcome<StatusCounts>> {
  const statuses = [undefined, ...STATUSES];
  const answers = await Promise.all(
    statuses.map((status) =>
      outcome(
        api.GET('/admin/orders', { params: { query: orderQuery({ ...filter, status }, 1) } }),
      ),
    ),
  );
  const counts: Partial<StatusCounts> = {};
  for (const [index, answer] of answers.entries()) {
    if ('message' in answer) return answer;
    counts[statuses[index] ?? 'all'] = answer.data.pagination.total;
  }
  return {
    data: counts as StatusCounts,
    response: (answers[0] as { response: Response }).response,
  };
}
