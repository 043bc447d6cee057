import type { Product } from '@dogshop/contracts/shop';
import type { ProductRow } from './repository.js';

/** A row of the list or detail statement, which carries the API's fields (repository.ts). */
export const productRowToDto = (row: ProductRow): Product => ({
  ...row,
  // The column's `numeric(10,2)` as text ("19.99", "499.00"): its number is the exact amount
  // with at most two decimals, as toMoneyNumber renders it, without a Decimal per row.
  price: Number(row.price),
  created_at: row.created_at.toISOString(),
});
