import type { Db, Tx } from '../../db/client.js';

/** The database's categories as name → parent name, for references and cycle checks. */
export async function existingCategories(db: Db): Promise<Map<string, string | null>> {
  const rows = await db.category.findMany({
    select: { name: true, parent: { select: { name: true } } },
  });
  return new Map(rows.map((r) => [r.name, r.parent?.name ?? null]));
}

/** Inserts or updates the category of this name; returns its id. */
export async function upsertCategory(
  tx: Tx,
  name: string,
  fields: { description: string; sortOrder: number; active: boolean },
): Promise<number> {
  const row = await tx.category.upsert({
    where: { name },
    create: { name, ...fields },
    update: fields,
    select: { id: true },
  });
  return row.id;
}

/** The id of a category already stored (one the file refers to without listing it). */
export async function categoryIdByName(tx: Tx, name: string): Promise<number> {
  const row = await tx.category.findUniqueOrThrow({ where: { name }, select: { id: true } });
  return row.id;
}

export async function setCategoryParent(
  tx: Tx,
  name: string,
  parentId: number | null,
): Promise<void> {
  await tx.category.update({ where: { name }, data: { parentId } });
}

/**
 * Inserts or updates the product of this name within its category (its row locked first);
 * returns its id and its stock before (null: new) and after, for the stock movements.
 */
export async function upsertProduct(
  tx: Tx,
  categoryId: number,
  name: string,
  fields: { description: string; price: string; stock: number; active: boolean },
): Promise<{ id: number; stockBefore: number | null }> {
  const [existing] = await tx.$queryRaw<Array<{ id: number; stock: number }>>`
    SELECT id, stock FROM products WHERE category_id = ${categoryId} AND name = ${name} FOR UPDATE`;
  if (existing) {
    await tx.product.update({ where: { id: existing.id }, data: fields, select: { id: true } });
    return { id: existing.id, stockBefore: existing.stock };
  }
  const row = await tx.product.create({
    data: { name, categoryId, ...fields },
    select: { id: true },
  });
  return { id: row.id, stockBefore: null };
}
