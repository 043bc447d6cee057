// The catalogue import (`pnpm cli catalogue:import`, the first start's demo data, the benchmark's
// data set): parse and check the whole file first, then write it in one transaction.
import type { Db } from '../../db/client.js';
import { insertMovements, type NewMovement } from '../stock/repository.js';
import type { Catalogue } from './parse.js';
import {
  categoryIdByName,
  setCategoryParent,
  upsertCategory,
  upsertProducts,
  type ProductWrite,
} from './repository.js';

export {
  parseCatalogue,
  type Catalogue,
  type CategoryEntry,
  type ExistingCategories,
  type ParseResult,
  type ProductEntry,
} from './parse.js';
export { existingCategories } from './repository.js';
export { demoCatalogue } from './demo-catalogue.js';

/**
 * Writes a catalogue that parseCatalogue accepted: upserts categories by name and products by
 * name within their category (all products in three statements), in one transaction. Parents are linked after all categories exist,
 * so the file's order does not matter. The file is the truth for the entries it lists (an omitted
 * optional field gets its default again); categories and products it does not list are left alone.
 */
export async function importCatalogue(
  db: Db,
  catalogue: Catalogue,
): Promise<{ categories: number; products: number }> {
  return db.$transaction(
    async (tx) => {
      const ids = new Map<string, number>();
      for (const c of catalogue.categories) {
        const id = await upsertCategory(tx, c.name, {
          description: c.description ?? '',
          sortOrder: c.sort_order ?? 0,
          active: c.active ?? true,
        });
        ids.set(c.name, id);
      }
      const idOf = async (name: string): Promise<number> => {
        const known = ids.get(name);
        if (known !== undefined) return known;
        const id = await categoryIdByName(tx, name);
        ids.set(name, id);
        return id;
      };
      for (const c of catalogue.categories) {
        await setCategoryParent(tx, c.name, c.parent ? await idOf(c.parent) : null);
      }
      const products: ProductWrite[] = [];
      for (const p of catalogue.products) {
        products.push({
          categoryId: await idOf(p.category),
          name: p.name,
          description: p.description ?? '',
          price: p.price.toFixed(2),
          stock: p.stock,
          active: p.active ?? true,
        });
      }
      const written = await upsertProducts(tx, products);
      // The stock movements add up to the stock: a new product's opening stock, a changed one's difference.
      const movements = written.flatMap(({ id, stockBefore }, i): NewMovement[] => {
        const { stock } = products[i]!;
        if (stockBefore === null) return [{ productId: id, kind: 'created', delta: stock, stock }];
        if (stockBefore === stock) return [];
        return [{ productId: id, kind: 'import', delta: stock - stockBefore, stock }];
      });
      await insertMovements(tx, movements);
      return { categories: catalogue.categories.length, products: catalogue.products.length };
    },
    { timeout: 10 * 60_000, maxWait: 30_000 },
  );
}
