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

/** A product of the file, its category resolved. */
export interface ProductWrite {
  categoryId: number;
  name: string;
  description: string;
  /** Decimal text to the cent, e.g. `"39.90"`. */
  price: string;
  stock: number;
  active: boolean;
}

const productKey = (categoryId: number, name: string) => `${categoryId}\u0000${name}`;

/**
 * Writes `products` as the file says, matched by name within their category: updates those that
 * exist (their rows locked first, in id order), inserts the others; three statements whatever
 * the count. Returns each product's id and its stock before (null: new), in the given order.
 */
export async function upsertProducts(
  tx: Tx,
  products: ProductWrite[],
): Promise<Array<{ id: number; stockBefore: number | null }>> {
  if (products.length === 0) return [];
  const column = <T>(pick: (p: ProductWrite) => T, of = products) => of.map(pick);
  const existing = await tx.$queryRaw<
    Array<{ id: number; category_id: number; name: string; stock: number }>
  >`
    SELECT p.id, p.category_id, p.name, p.stock
      FROM products p
      JOIN unnest(${column((p) => p.categoryId)}::int[], ${column((p) => p.name)}::text[])
           AS wanted(category_id, name)
        ON p.category_id = wanted.category_id AND p.name = wanted.name
     ORDER BY p.id
       FOR UPDATE OF p`;
  const found = new Map(existing.map((r) => [productKey(r.category_id, r.name), r]));
  const held = (p: ProductWrite) => found.get(productKey(p.categoryId, p.name));
  const updates = products.filter((p) => held(p));
  const inserts = products.filter((p) => !held(p));
  if (updates.length > 0) {
    await tx.$executeRaw`
      UPDATE products p
         SET description = u.description, price = u.price, stock = u.stock, active = u.active,
             updated_at = now()
        FROM unnest(${updates.map((p) => held(p)!.id)}::int[],
                    ${column((p) => p.description, updates)}::text[],
                    ${column((p) => p.price, updates)}::numeric[],
                    ${column((p) => p.stock, updates)}::int[],
                    ${column((p) => p.active, updates)}::boolean[])
             AS u(id, description, price, stock, active)
       WHERE p.id = u.id`;
  }
  const inserted =
    inserts.length === 0
      ? []
      : await tx.$queryRaw<Array<{ id: number; category_id: number; name: string }>>`
          INSERT INTO products (category_id, name, description, price, stock, active, updated_at)
          SELECT category_id, name, description, price, stock, active, now()
            FROM unnest(${column((p) => p.categoryId, inserts)}::int[],
                        ${column((p) => p.name, inserts)}::text[],
                        ${column((p) => p.description, inserts)}::text[],
                        ${column((p) => p.price, inserts)}::numeric[],
                        ${column((p) => p.stock, inserts)}::int[],
                        ${column((p) => p.active, inserts)}::boolean[])
                 WITH ORDINALITY AS i(category_id, name, description, price, stock, active, ord)
           ORDER BY ord
          RETURNING id, category_id, name`;
  const created = new Map(inserted.map((r) => [productKey(r.category_id, r.name), r.id]));
  return products.map((p) => {
    const before = held(p);
    return before
      ? { id: before.id, stockBefore: before.stock }
      : { id: created.get(productKey(p.categoryId, p.name))!, stockBefore: null };
  });
}
