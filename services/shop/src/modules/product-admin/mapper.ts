import type { AdminProduct } from '@dogshop/contracts/shop';
import type { AdminProductRow } from './repository.js';

export const toAdminProduct = (row: AdminProductRow): AdminProduct => ({
  id: row.id,
  name: row.name,
  description: row.description,
  // `numeric(10,2)` as text: its number is the exact amount (as products/mapper.ts).
  price: Number(row.price),
  category_id: row.category_id,
  category_name: row.category_name,
  stock: row.stock,
  active: row.active,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
