import type { Category } from '@dogshop/contracts/shop';
import type { Db } from '../db/client.js';

export async function listCategories(db: Db): Promise<Category[]> {
  const rows = await db.category.findMany({
    where: { active: true },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
  });
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    description: c.description,
    parent_id: c.parentId,
    sort_order: c.sortOrder,
    active: c.active,
  }));
}
