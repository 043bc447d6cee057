import type { Product } from '@dogshop/contracts/shop';
import { toMoneyNumber } from '../../domain/money.js';
import type { ProductListRow, ProductRow } from './repository.js';

export function productToDto(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: toMoneyNumber(row.price),
    category_id: row.categoryId,
    category_name: row.category.name,
    stock: row.stock,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

/** A row of the list statement. */
export function productListRowToDto(row: ProductListRow): Product {
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
