// A product's page (`/app/products/42`): its editor (a viewer reads its facts instead), its stock
// with a stock change, and its stock movements a page at a time. `/app/products/new` is the
// editor of a new product; once created, the address becomes the product's own.
import { ErrorAlert, useLocation, useResource } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { productPath } from '../app/paths';
import { loadCategories, treeOrder } from '../categories/category-tree';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatCount, formatDateTime, formatMoney } from '../lib/format';
import { lastListUrl, NEW_PRODUCT_ID } from './links';
import { ProductForm } from './product-form';
import { StockChangeForm } from './stock-change';
import { StockMovements } from './stock-movements';
import './products.css';

type AdminProduct = Schemas['AdminProduct'];

/** Movements per page on the product's page. */
const MOVEMENTS_PAGE = 20;

export function ProductPage({ session, params }: SectionProps) {
  const writer = canWrite(session);
  const { route } = useLocation();
  // Said once a new product is created, on its own page (the page stays, its address changes).
  const [created, setCreated] = useState<number | undefined>();
  // The editor's choice of category; a viewer reads the product's category name instead.
  const categories = useResource(writer ? () => loadCategories(session.api) : undefined, [writer]);
  const tree = treeOrder(categories.data?.data ?? []);
  const back = (
    <p>
      <a href={lastListUrl()}>Back to the products</a>
    </p>
  );

  if (params.id === NEW_PRODUCT_ID) {
    if (!writer) return <NoProduct back={back} />;
    return (
      <section aria-labelledby="page-heading" class="product-page">
        {back}
        <h2 id="page-heading">New product</h2>
        <ErrorAlert text={categories.error} />
        <ProductForm
          api={session.api}
          categories={tree}
          onSaved={(product) => {
            setCreated(product.id);
            route(productPath(product.id), true);
          }}
        />
      </section>
    );
  }
  const id = /^[1-9]\d{0,9}$/.test(params.id ?? '') ? Number(params.id) : undefined;
  if (id === undefined) return <NoProduct back={back} />;
  return (
    <ExistingProduct
      key={id}
      api={session.api}
      id={id}
      writer={writer}
      justCreated={created === id}
      categories={tree}
      categoriesError={categories.error}
      back={back}
    />
  );
}

function NoProduct({ back }: { back: preact.JSX.Element }) {
  return (
    <section aria-labelledby="page-heading">
      {back}
      <h2 id="page-heading">There is no such product</h2>
      <p>The address names no product. The list of products has every one.</p>
    </section>
  );
}

function ExistingProduct(props: {
  api: Api;
  id: number;
  writer: boolean;
  justCreated: boolean;
  categories: ReturnType<typeof treeOrder>;
  categoriesError: string | undefined;
  back: preact.JSX.Element;
}) {
  const { api, id, writer } = props;
  const loaded = useResource(
    () => outcome(api.GET('/admin/products/{id}', { params: { path: { id } } })),
    [id],
  );
  const [version, setVersion] = useState(0);
  const [stockNotice, setStockNotice] = useState('');
  const product = loaded.data?.data;
  const show = (changed: AdminProduct) => loaded.mutate((shown) => ({ ...shown, data: changed }));

  if (!product) {
    return (
      <section aria-labelledby="page-heading">
        {props.back}
        <h2 id="page-heading">
          {loaded.failure?.status === 404 ? 'There is no such product' : 'Product'}
        </h2>
        <p class="status" role="status">
          {loaded.loading ? 'Loading the product …' : ''}
        </p>
        <ErrorAlert text={loaded.error} />
      </section>
    );
  }

  return (
    <section aria-labelledby="page-heading" class="product-page">
      {props.back}
      <h2 id="page-heading">{product.name}</h2>
      {props.justCreated && (
        <p class="notice" role="status">
          The product is created.
          {product.active ? ' It is in the storefront now.' : ''}
        </p>
      )}
      <dl class="facts-list">
        <dt>Number</dt>
        <dd>{product.id}</dd>
        <dt>State</dt>
        <dd>{product.active ? 'Active: in the storefront' : 'Inactive: not in the storefront'}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={product.created_at}>{formatDateTime(product.created_at)}</time>
        </dd>
        <dt>Last changed</dt>
        <dd>
          <time dateTime={product.updated_at}>{formatDateTime(product.updated_at)}</time>
        </dd>
        {!writer && (
          <>
            <dt>Category</dt>
            <dd>{product.category_name}</dd>
            <dt>Price</dt>
            <dd>{formatMoney(product.price)}</dd>
            <dt>Description</dt>
            <dd class="description">{product.description || '—'}</dd>
          </>
        )}
      </dl>
      <ErrorAlert text={loaded.error} />
      {writer && (
        <>
          <ErrorAlert text={props.categoriesError} />
          <ProductForm api={api} product={product} categories={props.categories} onSaved={show} />
        </>
      )}

      <section aria-labelledby="stock-heading">
        <h3 id="stock-heading" class="section-heading">
          Stock
        </h3>
        <p>
          In stock: <strong class="stock-now">{formatCount(product.stock)}</strong>
        </p>
        {writer && (
          <div class="panel">
            <StockChangeForm
              api={api}
              product={product}
              idPrefix="stock"
              onSaved={(changed) => {
                show(changed);
                setStockNotice(`Saved: the stock is now ${formatCount(changed.stock)}.`);
                setVersion(version + 1);
              }}
            />
            <p class="status" role="status">
              {stockNotice}
            </p>
          </div>
        )}
        <h3 class="section-heading">Stock movements</h3>
        <StockMovements
          api={api}
          productId={id}
          caption={`Stock movements of ${product.name}`}
          pageSize={MOVEMENTS_PAGE}
          version={version}
        />
      </section>
    </section>
  );
}
