// One customer (`/app/customers/42`): the profile, the saved addresses (the default first) and
// the newest orders, each linking to its order's page. Read only: the back office changes no
// customer.
import { ErrorAlert, useResource, withQuery } from '@dogshop/web-kit';
import type { SectionProps } from '../app/app';
import { APP_BASE, orderPath } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { formatCount, formatDateTime, formatDay, formatMoney, STATUS_NAMES } from '../lib/format';
import { customerName } from './customer-name';
import './customers.css';

type Customer = Schemas['AdminCustomerDetail'];
type Address = Schemas['Address'];

/** The API's largest id: anything else in the URL names no customer (and is not asked for). */
const MAX_ID = 2_147_483_647;

export function CustomerPage({ session, params }: SectionProps) {
  const id = Number(params.id);
  const valid = /^[1-9][0-9]*$/.test(params.id ?? '') && id <= MAX_ID;
  // Another customer's URL: the last one is never shown as this one.
  const customer = useResource(
    valid
      ? () => outcome(session.api.GET('/admin/customers/{id}', { params: { path: { id } } }))
      : undefined,
    [id, valid],
  );
  const data = customer.data?.data;

  return (
    <section aria-labelledby="page-heading">
      <p>
        <a href="/app/customers">All customers</a>
      </p>
      <h2 id="page-heading">{data ? customerName(data) : 'Customer'}</h2>
      {!valid && <p class="error">The address names no customer.</p>}
      <p class="status" role="status">
        {customer.loading ? 'Loading the customer …' : ''}
      </p>
      <ErrorAlert text={customer.error} />
      {data && <CustomerDetails customer={data} />}
    </section>
  );
}

function CustomerDetails({ customer }: { customer: Customer }) {
  return (
    <>
      <dl class="facts-list">
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${customer.email}`}>{customer.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>{customer.phone || <span class="muted">none given</span>}</dd>
        <dt>Customer since</dt>
        <dd>
          <time dateTime={customer.created_at}>{formatDay(customer.created_at)}</time>
        </dd>
        <dt>Last sign-in</dt>
        <dd>
          {customer.last_login ? (
            <time dateTime={customer.last_login}>{formatDateTime(customer.last_login)}</time>
          ) : (
            <span class="muted">never</span>
          )}
        </dd>
        <dt>Newsletter</dt>
        <dd>{customer.newsletter ? 'subscribed' : 'not subscribed'}</dd>
      </dl>
      <Addresses addresses={customer.addresses} />
      <Orders customer={customer} />
    </>
  );
}

function Addresses({ addresses }: { addresses: Address[] }) {
  return (
    <section class="customer-part" aria-labelledby="addresses-heading">
      <h3 id="addresses-heading">Addresses</h3>
      {addresses.length === 0 ? (
        <p class="muted">No address saved.</p>
      ) : (
        <ul class="address-list">
          {addresses.map((a) => (
            <li key={a.id} class="panel">
              {a.is_default && <p class="address-default">Default address</p>}
              <AddressLines address={a} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AddressLines({ address: a }: { address: Address }) {
  const lines = [
    `${a.first_name} ${a.last_name}`.trim(),
    a.company,
    a.address,
    `${a.postal_code} ${a.city}`.trim(),
    a.country,
  ].filter((line) => line !== '');
  return (
    <p>
      {lines.map((line, i) => (
        <span key={i} class="address-line">
          {line}
        </span>
      ))}
      {a.phone && <span class="address-line">Phone: {a.phone}</span>}
    </p>
  );
}

function Orders({ customer }: { customer: Customer }) {
  const { orders, order_count: count } = customer;
  return (
    <section class="customer-part" aria-labelledby="orders-heading">
      <h3 id="orders-heading">Orders</h3>
      <p class="muted">
        {count === 0
          ? 'No order placed with this account.'
          : orders.length < count
            ? `${formatCount(count)} orders in all; the ${formatCount(orders.length)} newest are shown.`
            : `${formatCount(count)} ${count === 1 ? 'order' : 'orders'}.`}{' '}
        {orders.length < count && (
          <a href={withQuery(APP_BASE, { q: customer.email })}>All orders with this e-mail</a>
        )}
      </p>
      {orders.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              Orders of {customerName(customer)}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Total
                </th>
                <th scope="col">Placed</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <a href={orderPath(o.id)}>Order {o.id}</a>
                  </th>
                  <td>{STATUS_NAMES[o.status]}</td>
                  <td class="number">{formatMoney(o.total_amount)}</td>
                  {/* Last: on a phone what matters most is seen without scrolling. */}
                  <td class="order-placed">
                    <time dateTime={o.created_at}>{formatDateTime(o.created_at)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
