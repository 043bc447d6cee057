import type { Db } from '../../db/client.js';
import type { Category as CategoryRow } from '../../generated/prisma/client.js';

export type { CategoryRow };

/** Active categories by sort order, then name. */
export const findActiveCategories = (db: Db): Promise<CategoryRow[]> =>
  db.category.findMany({
    where: { active: true },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
  });
