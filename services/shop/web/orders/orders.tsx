// The orders, the admin app's first screen: newest first, filtered by status (each with its count
// for the current search), by a search (order number, e-mail, name or phone) and a date range,
// all kept in the URL's query (`/app/?status=pending&q=Meyer`): Back returns to the previous
// filter, and a link from the dashboard opens a filtered list. 50 rows a page, "Show more" for the
// next; the export writes every order of the filter.
import { ErrorAlert, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import type { TargetedEvent } from 'preact';
import type { SectionProps } from '../app/app';
import { APP_BASE, orderPath } from '../app/paths';
import { outcome } from '../lib/api';
import { formatCount, formatDateTime, formatMoney, STATUS_NAMES, STATUSES } from '../lib/format';
import { OrdersExport } from './orders-export';
import { orderQuery, statusCounts, type OrderFilter } from './filter';
import './orders.css';

const PAGE_SIZE = 50;

/** The filter of the URL's query; anything unknown in it is ignored. */
function filterOf(query: Record<string, string>): OrderFilter {
  const status = STATUSES.find((s) => s === query.status);
  const day = (value: string | undefined) =>
    value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
  return { status, q: query.q?.trim() || undefined, from: day(query.from), to: day(query.to) };
}

export function Orders({ session }: SectionProps) {
  const { query, route } = useLocation();
  const filter = filterOf(query);
  const { api } = session;

  const list = useResource(
    () => outcome(api.GET('/admin/orders', { params: { query: orderQuery(filter, PAGE_SIZE) } })),
    [filter.status, filter.q, filter.from, filter.to],
    { keep: true, delayMs: 250 },
  );

  const counts = useResource(() => statusCounts(api, filter), [filter.q, filter.from, filter.to], {
    keep: true,
    delayMs: 250,
  });

  const show = (change: Partial<OrderFilter>, replace = false) => {
    const next = { ...filter, ...change };
    route(
      withQuery(APP_BASE, {
        status: next.status ?? '',
        q: next.q ?? '',
        from: next.from ?? '',
        to: next.to ?? '',
      }),
      replace,
    );
  };

  const onSearch = (event: TargetedEvent<HTMLInputElement>) =>
    // One history entry per search, not per key: typing replaces the entry it started.
    show({ q: event.currentTarget.value || undefined }, filter.q !== undefined);

  const loadMore = () => {
    const cursor = list.data?.pagination.next_cursor;
    if (!cursor) return;
    list.more(
      () =>
        outcome(
          api.GET('/admin/orders', {
            params: { query: { ...orderQuery(filter, PAGE_SIZE), cursor } },
          }),
        ),
      (shown, next) => ({ ...next, data: [...shown.data, ...next.data] }),
    );
  };

  const orders = list.data?.data ?? [];
  const total = list.data?.pagination.total;
  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <div class="filters" role="group" aria-label="Status">
        {([undefined, ...STATUSES] as const).map((status) => {
          const count = counts.data?.[status ?? 'all'];
          return (
            <button
              key={status ?? 'all'}
              type="button"
              aria-pressed={filter.status === status}
              onClick={() => show({ status })}
            >
              {status ? STATUS_NAMES[status] : 'All'}
              {count !== undefined && <span class="count"> {formatCount(count)}</span>}
            </button>
          );
        })}
      </div>
      <form class="toolbar" role="search" onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="orders-q">Search</label>
          <input
            id="orders-q"
            type="search"
            value={filter.q ?? ''}
            onInput={onSearch}
            aria-describedby="orders-q-hint"
            autoComplete="off"
          />
          <p id="orders-q-hint" class="hint">
            Order number, e-mail, name or phone
          </p>
        </div>
        <div>
          <label for="orders-from">Placed from</label>
          <input
            id="orders-from"
            type="date"
            value={filter.from ?? ''}
            max={filter.to}
            onChange={(event) => show({ from: event.currentTarget.value || undefined })}
          />
        </div>
        <div>
          <label for="orders-to">Placed until</label>
          <input
            id="orders-to"
            type="date"
            value={filter.to ?? ''}
            min={filter.from}
            onChange={(event) => show({ to: event.currentTarget.value || undefined })}
          />
        </div>
      </form>
      <p class="status" role="status">
        {list.loading === 'all'
          ? 'Loading orders …'
          : total !== undefined &&
            `${formatCount(total)} ${total === 1 ? 'order' : 'orders'} found`}
      </p>
      <ErrorAlert text={list.error ?? counts.error} />
      {orders.length > 0 && (
        <div class="table-wrap">
          <table class="orders">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Customer</th>
                <th scope="col" class="number">
                  Total
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <td>
                    <a href={orderPath(order.id)}>#{order.id}</a>
                  </td>
                  <td>{formatDateTime(order.created_at)}</td>
                  <td>
                    <span class="customer">{order.customer_name}</span>
                    <span class="muted email">{order.customer_email}</span>
                  </td>
                  <td class="number">{formatMoney(order.total_amount)}</td>
                  <td>
                    <span class={`badge status-${order.status}`}>{STATUS_NAMES[order.status]}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data?.pagination.next_cursor && (
        <button
          type="button"
          class="secondary wide"
          disabled={list.loading !== undefined}
          onClick={loadMore}
        >
          {list.loading === 'more' ? 'Loading …' : `Show ${PAGE_SIZE} more`}
        </button>
      )}
      <OrdersExport api={api} filter={filter} />
    </section>
  );
}
