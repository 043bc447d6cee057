import type { Product } from '@dogshop/contracts/shop';
import { toMoneyNumber } from '../../domain/money.js';
import type { ProductRow } from './repository.js';

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
