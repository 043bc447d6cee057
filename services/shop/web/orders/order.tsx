// One order (`/app/orders/42`): its items, customer, timeline (who changed what, when) and notes;
// a button for each status it may change to now (the API's `allowed_next`: never a free status
// field), each asking for an optional note; a note of its own. A viewer sees the order only.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { APP_BASE, customerPath } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { formatDateTime, formatMoney, STATUS_NAMES } from '../lib/format';
import { AddNote } from './add-note';
import { StatusChange } from './status-change';
import { Timeline } from './timeline';
import './orders.css';

export type AdminOrder = Schemas['AdminOrderDetail'];

export function OrderPage({ session, params }: SectionProps) {
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
  const order = useResource(
    valid
      ? () => outcome(session.api.GET('/admin/orders/{id}', { params: { path: { id } } }))
      : undefined,
    [id],
  );
  const [changed, setChanged] = useState('');
  const data = order.data?.data;

  if (!valid || order.failure?.status === 404) {
    return (
      <section aria-labelledby="order-heading">
        <h2 id="order-heading">No such order</h2>
        <p>
          There is no order {params.id}. <a href={APP_BASE}>Go to the orders</a>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="order-heading" class="order">
      <p>
        <a href={APP_BASE}>All orders</a>
      </p>
      <h2 id="order-heading">
        Order #{id}{' '}
        {data && <span class={`badge status-${data.status}`}>{STATUS_NAMES[data.status]}</span>}
      </h2>
      <p class="status" role="status">
        {order.loading === 'all' ? 'Loading the order …' : changed}
      </p>
      <ErrorAlert text={order.error} />
      {data && (
        <>
          <dl class="facts-list">
            <dt>Placed</dt>
            <dd>{formatDateTime(data.created_at)}</dd>
            <dt>Total</dt>
            <dd>{formatMoney(data.total_amount)}</dd>
          </dl>
          {canWrite(session) && data.allowed_next.length > 0 && (
            <StatusChange
              api={session.api}
              order={data}
              onChanged={(next) => {
                order.mutate(() => next);
                setChanged(`Status changed to ${STATUS_NAMES[next.data.status]}.`);
              }}
            />
          )}
          <h3>Items</h3>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col" class="number">
                    Quantity
                  </th>
                  <th scope="col" class="number">
                    Price
                  </th>
                  <th scope="col" class="number">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr key={item.product_id}>
                    <td>{item.product_name}</td>
                    <td class="number">{item.quantity}</td>
                    <td class="number">{formatMoney(item.price)}</td>
                    <td class="number">{formatMoney(item.total_price)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Customer</h3>
          <dl class="facts-list">
            <dt>Name</dt>
            <dd>
              {data.customer_id !== null ? (
                <a href={customerPath(data.customer_id)}>{data.customer_name}</a>
              ) : (
                <>
                  {data.customer_name} <span class="muted">(guest)</span>
                </>
              )}
            </dd>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${data.customer_email}`}>{data.customer_email}</a>
            </dd>
            <dt>Phone</dt>
            <dd>{data.customer_phone || <span class="muted">none</span>}</dd>
          </dl>
          <h3>Timeline</h3>
          <Timeline entries={data.timeline} />
          {canWrite(session) && (
            <AddNote
              api={session.api}
              orderId={id}
              onAdded={(entry) =>
                order.mutate((shown) => ({
                  ...shown,
                  data: { ...shown.data, timeline: [...shown.data.timeline, entry] },
                }))
              }
            />
          )}
        </>
      )}
    </section>
  );
}
