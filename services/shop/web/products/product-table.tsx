// The products as a table: a row per product on a desktop, a card per product on a phone (the
// stylesheet turns rows into blocks there, each cell with its column's name). A writer edits the
// price in its row and opens a stock change under it (with the latest movements); a viewer reads
// the same table without any control that writes.
import { useState } from 'preact/hooks';
import type { Api, Schemas } from '../lib/api';
import { formatCount, formatMoney } from '../lib/format';
import { productPath } from '../app/paths';
import { PriceField } from './price-field';
import { StockChangeForm } from './stock-change';
import { StockMovements } from './stock-movements';

type AdminProduct = Schemas['AdminProduct'];

/** Latest movements shown under a row after a stock change; the product's page has them all. */
const ROW_MOVEMENTS = 5;

export interface RowWrites {
  api: Api;
  /** A product changed by its row (price or stock): the list shows it so. */
  onChanged: (product: AdminProduct) => void;
}

export function ProductTable(props: {
  api: Api;
  products: AdminProduct[];
  /** Absent for a viewer: no write control is rendered. */
  writes?: RowWrites | undefined;
}) {
  // One stock change open at a time: the row's panel below it.
  const [open, setOpen] = useState<number | undefined>();
  return (
    <div class="table-wrap">
      <table class="product-table">
        <caption class="visually-hidden">Products</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Category</th>
            <th scope="col" class="number">
              Price
            </th>
            <th scope="col" class="number">
              Stock
            </th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {props.products.map((product) => (
            <ProductRow
              key={product.id}
              api={props.api}
              product={product}
              writes={props.writes}
              open={open === product.id}
              onToggle={(opened) => setOpen(opened ? product.id : undefined)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ProductRow(props: {
  api: Api;
  product: AdminProduct;
  writes: RowWrites | undefined;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const { product, writes } = props;
  const [version, setVersion] = useState(0);
  const [saved, setSaved] = useState('');
  const panelId = `stock-panel-${product.id}`;
  const toggleId = `stock-toggle-${product.id}`;

  function close() {
    props.onToggle(false);
    setSaved('');
    document.getElementById(toggleId)?.focus();
  }

  return (
    <>
      <tr class={product.active ? undefined : 'inactive'}>
        <th scope="row" class="product-name">
          <a href={productPath(product.id)}>{product.name}</a>
        </th>
        <td data-label="Category">{product.category_name}</td>
        <td data-label="Price" class="number">
          {writes ? (
            <PriceField api={writes.api} product={product} onSaved={writes.onChanged} />
          ) : (
            formatMoney(product.price)
          )}
        </td>
        <td data-label="Stock" class="number">
          <div class="stock-cell">
            <span class={product.stock === 0 ? 'stock-count out' : 'stock-count'}>
              {formatCount(product.stock)}
            </span>
            {writes && (
              <button
                type="button"
                class="secondary small"
                id={toggleId}
                aria-expanded={props.open}
                aria-controls={props.open ? panelId : undefined}
                aria-label={`Change stock of ${product.name}`}
                onClick={() => (props.open ? close() : props.onToggle(true))}
              >
                Change
              </button>
            )}
          </div>
        </td>
        <td data-label="State">{product.active ? 'Active' : 'Inactive'}</td>
      </tr>
      {writes && props.open && (
        <tr class="stock-panel" id={panelId}>
          <td colSpan={5}>
            <StockChangeForm
              api={writes.api}
              product={product}
              idPrefix={`stock-${product.id}`}
              focusOnOpen
              onCancel={close}
              onSaved={(changed) => {
                setSaved(
                  `Saved: the stock of ${changed.name} is now ${formatCount(changed.stock)}.`,
                );
                setVersion(version + 1);
                writes.onChanged(changed);
              }}
            />
            <p class="status" role="status">
              {saved}
            </p>
            <h3 class="movements-heading">Latest stock movements</h3>
            <StockMovements
              api={props.api}
              productId={product.id}
              caption={`Latest stock movements of ${product.name}`}
              pageSize={ROW_MOVEMENTS}
              version={version}
              more={false}
            />
            <p>
              <a href={productPath(product.id)}>All movements of {product.name}</a>
            </p>
          </td>
        </tr>
      )}
    </>
  );
}
