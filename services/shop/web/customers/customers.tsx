// The customers: newest first, found by a part of the name or e-mail address, a page at a time.
// The search lives in the URL (`/app/customers?q=jana`): each search is a history entry, so Back
// returns to the last one, and a link opens it.
import { ErrorAlert, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import { useEffect, useState } from 'preact/hooks';
import type { SectionProps } from '../app/app';
import { customerPath } from '../app/paths';
import { outcome, type Schemas } from '../lib/api';
import { formatCount, formatDay } from '../lib/format';
import { LoadMore } from '../lib/load-more';
import { customerName } from './customer-name';
import './customers.css';

const LIST_PATH = '/app/customers';
/** Customers per page: a screenful on a desktop; "Load more" asks for the next ones. */
const PAGE_SIZE = 50;
/** The URL (and so the search) follows the field after this pause: one request per word. */
const TYPING_PAUSE_MS = 300;
/** The API's longest search (`q`). */
const Q_MAX = 200;

const listUrl = (q: string) => withQuery(LIST_PATH, { q: q.trim() });
/** The address bar's search now (a timer's view: the component's may be older). */
const searchNow = () => new URLSearchParams(location.search).get('q')?.trim() ?? '';

export function Customers({ session }: SectionProps) {
  const { api } = session;
  const here = useLocation();
  // What the URL says is what the list shows; the field may be ahead of it while typing.
  const q = here.query.q?.trim() ?? '';
  const [text, setText] = useState(q);

  const page = (cursor?: string) =>
    outcome(
      api.GET('/admin/customers', {
        params: { query: { ...(q && { q }), limit: PAGE_SIZE, ...(cursor && { cursor }) } },
      }),
    );
  // The last list stays shown while a new search loads; a late answer to an old search is dropped.
  const list = useResource(() => page(), [q], { keep: true });

  // Back, Forward or a link changed the URL: the field shows its search.
  useEffect(() => {
    setText((typed) => (typed.trim() === q ? typed : q));
  }, [q]);

  // Typing: the search becomes the URL after a pause.
  useEffect(() => {
    if (text.trim() === searchNow()) return;
    const timer = setTimeout(() => {
      if (text.trim() !== searchNow()) here.route(listUrl(text));
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  function search(event: Event) {
    event.preventDefault();
    if (text.trim() === searchNow()) list.reload();
    else here.route(listUrl(text));
  }

  const customers = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  const next = list.data?.pagination.next_cursor;
  const status =
    list.loading === 'all'
      ? q
        ? 'Searching …'
        : 'Loading the customers …'
      : list.loading === 'more'
        ? 'Loading more …'
        : list.data
          ? foundText(total, customers.length, q)
          : '';

  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Customers</h2>
      <form role="search" aria-label="Find customers" class="toolbar" onSubmit={search}>
        <div>
          <label for="customer-search">Name or e-mail</label>
          <input
            id="customer-search"
            type="search"
            autoComplete="off"
            maxLength={Q_MAX}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </div>
      </form>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={list.error} />
      {customers.length > 0 && <CustomerTable customers={customers} />}
      <LoadMore list={list} next={next} page={page} />
    </section>
  );
}

function foundText(total: number, shown: number, q: string): string {
  const what = `${formatCount(total)} ${total === 1 ? 'customer' : 'customers'}`;
  const found = q ? `${what} found for “${q}”` : what;
  return shown < total ? `${found}, ${formatCount(shown)} shown.` : `${found}.`;
}

function CustomerTable({ customers }: { customers: Schemas['AdminCustomer'][] }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Customers, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Phone</th>
            <th scope="col">Customer since</th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <a href={customerPath(c.id)}>{customerName(c)}</a>
              </th>
              <td class="customer-email">{c.email}</td>
              <td class="customer-phone">{c.phone || <span class="muted">none</span>}</td>
              <td>
                <time dateTime={c.created_at}>{formatDay(c.created_at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
