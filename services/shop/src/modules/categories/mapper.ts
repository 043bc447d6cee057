import type { AdminCategory, Category } from '@dogshop/contracts/shop';
import type { CategoryRow } from './repository.js';

export const categoryToDto = (row: CategoryRow): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  parent_id: row.parentId,
  sort_order: row.sortOrder,
  active: row.active,
});

export const toAdminCategory = (
  row: CategoryRow & { productCount: number; activeProductCount: number },
): AdminCategory => ({
  ...categoryToDto(row),
  product_count: row.productCount,
  active_product_count: row.activeProductCount,
});
