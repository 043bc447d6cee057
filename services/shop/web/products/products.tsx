// The products list (`/app/products`): search and filters (category, active, low stock) and the
// order, all in the address (`?q=lead&stock_below=5`), so Back returns to the previous filter and
// a link opens a filtered list; a page at a time ("Load more"). A writer edits price and stock in
// the rows and finds "New product" and "Import" here; everyone can export the filtered list.
import { ErrorAlert, useLocation, useResource, withQuery } from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { loadCategories, optionText, treeOrder } from '../categories/category-tree';
import { outcome, type Schemas } from '../lib/api';
import { formatCount } from '../lib/format';
import { ExportButton, type ProductFilter, type ProductSort } from './export-button';
import { IMPORT_PATH, NEW_PRODUCT_PATH, PRODUCTS_PATH, rememberListUrl } from './links';
import { ProductTable } from './product-table';
import './products.css';

type AdminProduct = Schemas['AdminProduct'];
type Sort = ProductSort;

/** Products per page: a screenful and more; "Load more" asks for the next ones. */
const PAGE_SIZE = 50;
/** Waits this long after the last keystroke before searching: one request per word, not per key. */
const TYPING_PAUSE_MS = 300;

const SORTS: { value: Sort; name: string }[] = [
  { value: '-created_at', name: 'Newest first' },
  { value: 'name', name: 'Name' },
  { value: 'stock', name: 'Lowest stock first' },
  { value: 'price', name: 'Lowest price first' },
  { value: '-price', name: 'Highest price first' },
];
const DEFAULT_SORT: Sort = '-created_at';

/** The low-stock choices; a link may name another bound, which is then offered too. */
const STOCK_BOUNDS = ['1', '5', '10', '25'];
const boundName = (bound: string) =>
  bound === '1' ? 'Out of stock' : `Fewer than ${formatCount(Number(bound))}`;

interface Filters {
  q: string;
  category_id: string;
  active: '' | 'true' | 'false';
  stock_below: string;
  sort: Sort;
}

const POSITIVE = /^[1-9]\d{0,9}$/;

/** The filters as the address holds them (the API's names); anything else is left out. */
function filtersOf(query: Record<string, string | undefined>): Filters {
  const { active, sort } = query;
  const number = (value: string | undefined) =>
    value && POSITIVE.test(value) && Number(value) <= 2_147_483_647 ? value : '';
  return {
    q: query.q ?? '',
    category_id: number(query.category_id),
    active: active === 'true' || active === 'false' ? active : '',
    stock_below: number(query.stock_below),
    sort: SORTS.find((s) => s.value === sort)?.value ?? DEFAULT_SORT,
  };
}

const listUrl = (filters: Filters) =>
  withQuery(PRODUCTS_PATH, { ...filters }, { sort: DEFAULT_SORT });

/** The filters of the address bar now (a timer's view: the component's may be older). */
const filtersNow = () => filtersOf(Object.fromEntries(new URLSearchParams(location.search)));

const sameFilters = (a: Filters, b: Filters) => listUrl(a) === listUrl(b);

/** The filters as the API takes them (empty ones left out). */
function apiFilter(filters: Filters): ProductFilter {
  const q = filters.q.trim().slice(0, 200);
  return {
    ...(q !== '' && { q }),
    ...(filters.category_id !== '' && { category_id: Number(filters.category_id) }),
    ...(filters.active !== '' && { active: filters.active === 'true' }),
    ...(filters.stock_below !== '' && { stock_below: Number(filters.stock_below) }),
  };
}

export function Products({ session }: SectionProps) {
  const { api } = session;
  const writer = canWrite(session);
  const location = useLocation();
  // What the address says is what the list shows; the controls may be ahead of it while typing.
  const shown = filtersOf(location.query);
  const applied = apiFilter(shown);
  const [filters, setFilters] = useState<Filters>(shown);
  const categories = useResource(() => loadCategories(api), []);
  /** The first product a "Load more" adds (its index), while that page loads. */
  const firstAdded = useRef<number | undefined>(undefined);
  const tree = treeOrder(categories.data?.data ?? []);

  const page = (cursor?: string) =>
    outcome(
      api.GET('/admin/products', {
        params: {
          query: { ...applied, sort: shown.sort, limit: PAGE_SIZE, ...(cursor && { cursor }) },
        },
      }),
    );
  // Loaded for each address; a search's answer that comes after a newer search's is dropped.
  const listing = useResource(() => page(), [location.url], { keep: true });

  useEffect(() => rememberListUrl(location.url), [location.url]);

  // Back or Forward (or a link) changed the address: the controls show its filters.
  useEffect(() => {
    setFilters((current) => (sameFilters(current, shown) ? current : shown));
  }, [location.url]);

  // A changed control: its filter becomes the address (a history entry) after a pause in typing.
  useEffect(() => {
    if (sameFilters(filters, filtersNow())) return;
    const timer = setTimeout(() => {
      if (!sameFilters(filters, filtersNow())) location.route(listUrl(filters));
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [filters]);

  const change = (part: Partial<Filters>) => setFilters((current) => ({ ...current, ...part }));
  const replace = (changed: AdminProduct) =>
    listing.mutate((list) => ({
      ...list,
      data: list.data.map((p) => (p.id === changed.id ? changed : p)),
    }));

  const { loading } = listing;
  const products = listing.data?.data ?? [];
  const nextCursor = listing.data?.pagination.next_cursor;

  function loadMore() {
    if (loading !== undefined || !nextCursor) return;
    firstAdded.current = products.length;
    listing.more(
      () => page(nextCursor),
      (list, next) => ({ ...next, data: [...list.data, ...next.data] }),
    );
  }

  // The last page took the button away: the keyboard goes on at the first product it added.
  useEffect(() => {
    const index = firstAdded.current;
    if (index === undefined || loading !== undefined) return;
    firstAdded.current = undefined;
    if (!nextCursor && (document.activeElement === document.body || !document.activeElement)) {
      const links = document.querySelectorAll<HTMLElement>('.product-table > tbody > tr > th > a');
      links[index]?.focus();
    }
  }, [loading]);

  const total = listing.data?.pagination.total ?? 0;
  const status =
    loading === 'all'
      ? 'Loading products …'
      : loading === 'more'
        ? 'Loading more products …'
        : listing.data === undefined
          ? ''
          : total === 0
            ? 'No product matches.'
            : products.length < total
              ? `${formatCount(products.length)} of ${formatCount(total)} products shown.`
              : `${formatCount(total)} ${total === 1 ? 'product' : 'products'}.`;
  const bounds =
    shown.stock_below && !STOCK_BOUNDS.includes(shown.stock_below)
      ? [...STOCK_BOUNDS, shown.stock_below].sort((a, b) => Number(a) - Number(b))
      : STOCK_BOUNDS;

  return (
    <section aria-labelledby="page-heading" class="products">
      <div class="page-head">
        <h2 id="page-heading">Products</h2>
        <div class="button-row">
          {writer && (
            <>
              <a class="button-link" href={NEW_PRODUCT_PATH}>
                New product
              </a>
              <a class="button-link secondary" href={IMPORT_PATH}>
                Import
              </a>
            </>
          )}
          <ExportButton api={api} filter={applied} />
        </div>
      </div>
      <form
        class="toolbar product-filters"
        role="search"
        aria-label="Search and filter products"
        onSubmit={(event) => {
          event.preventDefault();
          if (sameFilters(filters, filtersNow())) listing.reload();
          else location.route(listUrl(filters));
        }}
      >
        <div>
          <label for="product-search">Search (number, name, description)</label>
          <input
            id="product-search"
            type="search"
            autoComplete="off"
            maxLength={200}
            value={filters.q}
            onInput={(event) => change({ q: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="filter-category">Category</label>
          <select
            id="filter-category"
            value={filters.category_id}
            onChange={(event) => change({ category_id: event.currentTarget.value })}
          >
            <option value="">All categories</option>
            {tree.map((entry) => (
              <option key={entry.category.id} value={String(entry.category.id)}>
                {optionText(entry)}
              </option>
            ))}
            {/* A category the address names before the list has come (or one gone). */}
            {filters.category_id !== '' &&
              !tree.some((e) => String(e.category.id) === filters.category_id) && (
                <option value={filters.category_id}>Category {filters.category_id}</option>
              )}
          </select>
        </div>
        <div>
          <label for="filter-active">State</label>
          <select
            id="filter-active"
            value={filters.active}
            onChange={(event) => change({ active: event.currentTarget.value as Filters['active'] })}
          >
            <option value="">Active and inactive</option>
            <option value="true">Active only</option>
            <option value="false">Inactive only</option>
          </select>
        </div>
        <div>
          <label for="filter-stock">Stock</label>
          <select
            id="filter-stock"
            value={filters.stock_below}
            onChange={(event) => change({ stock_below: event.currentTarget.value })}
          >
            <option value="">Any stock</option>
            {bounds.map((bound) => (
              <option key={bound} value={bound}>
                {boundName(bound)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="product-sort">Order</label>
          <select
            id="product-sort"
            value={filters.sort}
            onChange={(event) => change({ sort: event.currentTarget.value as Sort })}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p class="status" role="status">
        {status}
      </p>
      <ErrorAlert text={listing.error ?? categories.error} />
      {products.length > 0 && (
        <ProductTable
          api={api}
          products={products}
          writes={writer ? { api, onChanged: replace } : undefined}
        />
      )}
      {nextCursor && (
        <button
          type="button"
          class="secondary wide"
          // aria-disabled, not disabled: the focus stays on the button while the page loads.
          aria-disabled={loading !== undefined}
          onClick={loadMore}
        >
          {loading === 'more' ? 'Loading …' : 'Load more products'}
        </button>
      )}
    </section>
  );
}
