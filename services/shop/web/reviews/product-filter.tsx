// The reviews' product filter: a search field narrowing a select of products (by name, the first
// 50 without a search), the chosen one kept in the select while other matches are shown. A
// select rather than a free combobox: every browser and screen reader knows how to work it.
import { useResource } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { outcome, type Api, type Schemas } from '../lib/api';

/** Products offered at a time; a search narrows them. */
const MATCHES = 50;
const TYPING_PAUSE_MS = 300;
/** The API's longest search (`q`). */
const Q_MAX = 200;

type Product = Schemas['AdminProduct'];

export function ProductFilter(props: {
  api: Api;
  /** The chosen product's id; undefined: all products. */
  productId: number | undefined;
  onChoose: (productId: number | undefined) => void;
}) {
  const { api, productId } = props;
  const [text, setText] = useState('');
  const q = text.trim();
  const matches = useResource(
    () =>
      outcome(
        api.GET('/admin/products', {
          params: { query: { ...(q && { q }), sort: 'name', limit: MATCHES } },
        }),
      ),
    [q],
    { delayMs: q ? TYPING_PAUSE_MS : 0, keep: true },
  );
  // The chosen product by its id (a link to the filtered list names only the id).
  const chosen = useResource(
    productId === undefined
      ? undefined
      : () => outcome(api.GET('/admin/products/{id}', { params: { path: { id: productId } } })),
    [productId],
  );

  const found = matches.data?.data ?? [];
  const chosenProduct = chosen.data?.data;
  const options: Product[] =
    chosenProduct && !found.some((p) => p.id === chosenProduct.id)
      ? [chosenProduct, ...found]
      : found;
  const more = matches.data?.pagination.next_cursor;
  const hint =
    matches.loading === 'all'
      ? 'Finding products …'
      : matches.error
        ? matches.error
        : q && found.length === 0
          ? `No product’s name holds “${q}”.`
          : more
            ? `The first ${MATCHES} of ${matches.data?.pagination.total} products; type to narrow them.`
            : '';

  return (
    <>
      <div>
        <label for="review-product-search">Find a product</label>
        <input
          id="review-product-search"
          type="search"
          autoComplete="off"
          maxLength={Q_MAX}
          value={text}
          aria-describedby="review-product-hint"
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </div>
      <div>
        <label for="review-product">Product</label>
        <select
          id="review-product"
          value={productId === undefined ? '' : String(productId)}
          aria-describedby="review-product-hint"
          onChange={(event) => {
            const value = event.currentTarget.value;
            props.onChoose(value === '' ? undefined : Number(value));
          }}
        >
          <option value="">All products</option>
          {/* Until its name has come, the chosen product by its number. */}
          {productId !== undefined && !options.some((p) => p.id === productId) && (
            <option value={String(productId)}>Product {productId}</option>
          )}
          {options.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.active ? p.name : `${p.name} (inactive)`}
            </option>
          ))}
        </select>
      </div>
      <p id="review-product-hint" class="hint product-filter-hint" aria-live="polite">
        {hint}
      </p>
    </>
  );
}
