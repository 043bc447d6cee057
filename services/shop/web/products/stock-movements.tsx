// A product's stock movements, newest first: when, the change, the stock after it, what kind
// (an order links to it), the reason and who made it. A page at a time ("Older movements"
// follows the API's cursor). `version` changes after a stock change here: the list loads again.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatCount, formatDateTime } from '../lib/format';
import { orderPath } from '../app/paths';

type StockMovement = Schemas['StockMovement'];

const KIND_NAMES: Record<StockMovement['kind'], string> = {
  opening: 'Opening stock',
  created: 'Product created',
  order: 'Order',
  cancellation: 'Order cancelled',
  adjustment: 'Adjustment',
  import: 'Import',
};

/** "+3", "−2" (a real minus sign), "0". */
export const deltaText = (delta: number) =>
  delta > 0 ? `+${formatCount(delta)}` : delta < 0 ? `−${formatCount(-delta)}` : '0';

export function StockMovements(props: {
  api: Api;
  productId: number;
  /** The table's name for screen readers (the product's: several lists can be on one page). */
  caption: string;
  /** Movements per page. */
  pageSize: number;
  version: number;
  /** Offers older pages ("Older movements"); false under a row, whose link leads to them all. */
  more?: boolean;
}) {
  const { api, productId, pageSize } = props;
  const page = (cursor?: string) =>
    outcome(
      api.GET('/admin/products/{id}/stock-movements', {
        params: { path: { id: productId }, query: { limit: pageSize, ...(cursor && { cursor }) } },
      }),
    );
  const movements = useResource(() => page(), [productId, props.version], { keep: true });
  const rows = movements.data?.data ?? [];
  const cursor = movements.data?.pagination.next_cursor;
  const { loading } = movements;

  return (
    <div class="stock-movements">
      <p class="status" role="status">
        {loading === 'all' && rows.length === 0
          ? 'Loading the stock movements …'
          : loading === 'more'
            ? 'Loading older movements …'
            : !loading && rows.length === 0 && !movements.error
              ? 'No stock movements yet.'
              : ''}
      </p>
      <ErrorAlert text={movements.error} />
      {rows.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{props.caption}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col" class="number">
                  Change
                </th>
                <th scope="col" class="number">
                  Stock after
                </th>
                <th scope="col">Kind</th>
                <th scope="col">Reason</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>
                    <time dateTime={m.at}>{formatDateTime(m.at)}</time>
                  </td>
                  <td class="number">{deltaText(m.delta)}</td>
                  <td class="number">{formatCount(m.stock)}</td>
                  <td>
                    {m.order_id !== null ? (
                      <a href={orderPath(m.order_id)}>
                        {KIND_NAMES[m.kind]} {m.order_id}
                      </a>
                    ) : (
                      KIND_NAMES[m.kind]
                    )}
                  </td>
                  <td class="reason">{m.reason ?? ''}</td>
                  <td>{m.actor?.name ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && props.more !== false && (
        <button
          type="button"
          class="secondary"
          // aria-disabled, not disabled: the focus stays on the button while the page loads.
          aria-disabled={loading !== undefined}
          onClick={() =>
            loading === undefined &&
            movements.more(
              () => page(cursor),
              (shown, next) => ({ ...next, data: [...shown.data, ...next.data] }),
            )
          }
        >
          {loading === 'more' ? 'Loading …' : 'Older movements'}
        </button>
      )}
    </div>
  );
}
