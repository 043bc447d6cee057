import type { Db, Tx } from '../../db/client.js';
import { Prisma, type Category as CategoryRow } from '../../generated/prisma/client.js';

export type { CategoryRow };

/** Active categories by sort order, then name. */
export const findActiveCategories = (db: Db): Promise<CategoryRow[]> =>
  db.category.findMany({
    where: { active: true },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
  });

export async function categoryExists(db: Db | Tx, id: number): Promise<boolean> {
  return (await db.category.count({ where: { id } })) > 0;
}

/**
 * Every category (or the one of `id`) with its own products counted, all and active ones, as the
 * back office lists them.
 */
export const findCategoriesWithCounts = (db: Db | Tx, id?: number) =>
  db.$queryRaw<Array<CategoryRow & { productCount: number; activeProductCount: number }>>`
    SELECT c.id, c.name, c.description, c.parent_id AS "parentId", c.sort_order AS "sortOrder",
           c.active, c.created_at AS "createdAt",
           (SELECT count(*)::int FROM products p WHERE p.category_id = c.id) AS "productCount",
           coalesce((SELECT k.active_products FROM category_product_counts k
                      WHERE k.category_id = c.id), 0) AS "activeProductCount"
      FROM categories c
     ${id === undefined ? Prisma.empty : Prisma.sql`WHERE c.id = ${id}`}
     ORDER BY c.sort_order, c.name, c.id`;

/** Each category's parent, the categories' rows locked until the transaction ends (tree changes queue). */
export const lockCategoryTree = (tx: Tx) =>
  tx.$queryRaw<Array<{ id: number; parentId: number | null }>>`
    SELECT id, parent_id AS "parentId" FROM categories ORDER BY id FOR UPDATE`;

export const insertCategory = (
  tx: Tx,
  fields: {
    name: string;
    description: string;
    parentId: number | null;
    sortOrder: number;
    active: boolean;
  },
) => tx.category.create({ data: fields, select: { id: true } });

export const updateCategoryFields = (
  tx: Tx,
  id: number,
  fields: Partial<{
    name: string;
    description: string;
    parentId: number | null;
    sortOrder: number;
    active: boolean;
  }>,
) => tx.category.update({ where: { id }, data: fields, select: { id: true } });
