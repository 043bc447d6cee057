// The dashboard: what waits to be done (pending orders, products out of stock, each a link to
// its filtered list), and the last 30 days' orders and revenue per day (days of the shop's time
// zone, as the API counts them) as charts, totals and a table of the figures.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import type { SectionProps } from '../app/app';
import { APP_BASE } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { formatCount, formatDate, formatMoney } from '../lib/format';
import { SalesChart } from './sales-chart';
import './dashboard.css';

type Figures = Schemas['SalesFigures'];

/** The filtered lists the to-do counts lead to (the orders and products lists read these). */
export const PENDING_ORDERS_PATH = `${APP_BASE}?status=pending`;
export const OUT_OF_STOCK_PATH = '/app/products?active=true&stock_below=1';

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

export function Dashboard({ session }: SectionProps) {
  // The API's default range: the 30 days up to today in the shop's time zone.
  const figures = useResource(() => outcome(session.api.GET('/admin/stats/sales')), []);
  const data = figures.data?.data;

  return (
    <section aria-labelledby="page-heading">
      <div class="dashboard-head">
        <h2 id="page-heading">Dashboard</h2>
        <button
          type="button"
          class="secondary"
          // aria-disabled, not disabled: the focus stays on the button while the figures load.
          aria-disabled={figures.loading !== undefined}
          onClick={() => figures.loading === undefined && figures.reload()}
        >
          Refresh
        </button>
      </div>
      <p class="status" role="status">
        {figures.loading ? 'Loading the figures …' : ''}
      </p>
      <ErrorAlert text={figures.error} />
      {data && (
        <>
          <ToDo todo={data.todo} />
          <Sales figures={data} />
        </>
      )}
    </section>
  );
}

function ToDo({ todo }: { todo: Figures['todo'] }) {
  return (
    <section class="dashboard-part" aria-labelledby="todo-heading">
      <h3 id="todo-heading">To do</h3>
      <ul class="dashboard-cards">
        <li>
          <a class="todo-link" href={PENDING_ORDERS_PATH}>
            <span class="card-figure">{formatCount(todo.pending_orders)}</span>{' '}
            {todo.pending_orders === 1 ? 'pending order' : 'pending orders'}
          </a>
        </li>
        <li>
          <a class="todo-link" href={OUT_OF_STOCK_PATH}>
            <span class="card-figure">{formatCount(todo.products_out_of_stock)}</span>{' '}
            {todo.products_out_of_stock === 1 ? 'product out of stock' : 'products out of stock'}
          </a>
        </li>
      </ul>
    </section>
  );
}

function Sales({ figures }: { figures: Figures }) {
  const { days, totals } = figures;
  return (
    <section class="dashboard-part" aria-labelledby="sales-heading">
      <h3 id="sales-heading">The last {days.length} days</h3>
      <p class="muted">
        {formatDate(figures.from)} to {formatDate(figures.to)}, days in the shop’s time zone (
        {figures.time_zone}); cancelled orders are not counted.
      </p>
      <dl class="dashboard-cards totals">
        <div class="stat-card">
          <dt>Orders</dt>
          <dd class="card-figure">{formatCount(totals.orders)}</dd>
        </div>
        <div class="stat-card">
          <dt>Revenue</dt>
          <dd class="card-figure">{formatMoney(totals.revenue)}</dd>
        </div>
        <div class="stat-card">
          <dt>Average order</dt>
          <dd class="card-figure">
            {totals.orders > 0 ? formatMoney(totals.revenue / totals.orders) : '–'}
          </dd>
        </div>
      </dl>
      <div class="charts">
        <SalesChart
          id="orders-chart"
          caption="Orders per day"
          days={days}
          value={(day) => day.orders}
          describe={(n) => plural(n, 'order', 'orders')}
          scale={formatCount}
        />
        <SalesChart
          id="revenue-chart"
          caption="Revenue per day"
          days={days}
          value={(day) => day.revenue}
          describe={formatMoney}
          scale={formatCount}
        />
      </div>
      <details class="figures">
        <summary>The figures per day as a table</summary>
        <FiguresTable figures={figures} />
      </details>
    </section>
  );
}

function FiguresTable({ figures }: { figures: Figures }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Orders and revenue per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" class="number">
              Orders
            </th>
            <th scope="col" class="number">
              Revenue
            </th>
          </tr>
        </thead>
        <tbody>
          {figures.days.map((day) => (
            <tr key={day.date}>
              <th scope="row">
                <time dateTime={day.date}>{formatDate(day.date)}</time>
              </th>
              <td class="number">{formatCount(day.orders)}</td>
              <td class="number">{formatMoney(day.revenue)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td class="number">{formatCount(figures.totals.orders)}</td>
            <td class="number">{formatMoney(figures.totals.revenue)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
