import type { Product } from '@dogshop/contracts/shop';
import type { ProductRow } from './repository.js';

/** A row of the list or detail statement. */
export function productRowToDto(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // The column's `numeric(10,2)` as text ("19.99", "499.00"): its number is the exact amount
    // with at most two decimals, as toMoneyNumber renders it, without a Decimal per row.
    price: Number(row.price),
    category_id: row.categoryId,
    category_name: row.categoryName,
    stock: row.stock,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}
