import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { Db } from '../db/client.js';

const CategoryEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    parent: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const ProductEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300 }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    price: Type.Number({ minimum: 0, maximum: 99_999_999.99, multipleOf: 0.01 }),
    category: Type.String({ minLength: 1 }),
    stock: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type CategoryEntry = Static<typeof CategoryEntrySchema>;
export type ProductEntry = Static<typeof ProductEntrySchema>;
export interface Catalogue {
  categories: CategoryEntry[];
  products: ProductEntry[];
}

export type ParseResult = { ok: true; catalogue: Catalogue } | { ok: false; errors: string[] };

/**
 * Validates a whole catalogue file and reports every bad entry (not just the first), so that an
 * import either writes everything or nothing. Category references must name a category of the
 * file or one already in the database (`existingCategories`); parents must not form a cycle.
 */
export function parseCatalogue(text: string, existingCategories: ReadonlySet<string> = new Set()): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, errors: ['the file must be an object {"categories": [...], "products": [...]}'] };
  }
  const root = json as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(root)) {
    if (key !== 'categories' && key !== 'products') errors.push(`unknown top-level field "${key}"`);
  }
  const categories = entries(root.categories, 'categories', CategoryEntrySchema, errors);
  const products = entries(root.products, 'products', ProductEntrySchema, errors);

  const names = new Map<string, number>();
  categories.forEach(({ value }, i) => {
    const seen = names.get(value.name);
    if (seen !== undefined) errors.push(`categories[${i}]: duplicate name "${value.name}" (also categories[${seen}])`);
    else names.set(value.name, i);
  });
  categories.forEach(({ value }, i) => {
    if (value.parent && !names.has(value.parent) && !existingCategories.has(value.parent)) {
      errors.push(`categories[${i}] "${value.name}": parent "${value.parent}" is not a known category`);
    }
  });
  errors.push(...parentCycles(categories.map((c) => c.value)));
  const productKeys = new Map<string, number>();
  products.forEach(({ value }, i) => {
    if (!names.has(value.category) && !existingCategories.has(value.category)) {
      errors.push(`products[${i}] "${value.name}": category "${value.category}" is not a known category`);
    }
    const key = `${value.category}\u0000${value.name}`;
    const seen = productKeys.get(key);
    if (seen !== undefined) errors.push(`products[${i}]: duplicate of products[${seen}] "${value.name}" in "${value.category}"`);
    else productKeys.set(key, i);
  });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    catalogue: { categories: categories.map((c) => c.value), products: products.map((p) => p.value) },
  };
}

function entries<T extends typeof CategoryEntrySchema | typeof ProductEntrySchema>(
  list: unknown,
  field: string,
  schema: T,
  errors: string[],
): Array<{ value: Static<T> }> {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    errors.push(`"${field}" must be an array`);
    return [];
  }
  const valid: Array<{ value: Static<T> }> = [];
  list.forEach((entry, i) => {
    const first = Value.Errors(schema, entry)[0];
    if (first) {
      const label = typeof entry?.name === 'string' ? ` "${entry.name}"` : '';
      const where = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'entry';
      errors.push(`${field}[${i}]${label}: ${where} ${first.message}`);
    } else valid.push({ value: entry as Static<T> });
  });
  return valid;
}

function parentCycles(categories: CategoryEntry[]): string[] {
  const parentOf = new Map(categories.map((c) => [c.name, c.parent ?? null]));
  const errors: string[] = [];
  for (const start of parentOf.keys()) {
    const seen = new Set<string>();
    for (let at: string | null | undefined = start; at; at = parentOf.get(at)) {
      if (seen.has(at)) {
        errors.push(`category "${start}": its parents form a cycle`);
        break;
      }
      seen.add(at);
    }
  }
  return errors;
}

export async function existingCategoryNames(db: Db): Promise<Set<string>> {
  const rows = await db.category.findMany({ select: { name: true } });
  return new Set(rows.map((r) => r.name));
}

/**
 * Writes a catalogue that parseCatalogue accepted: upserts categories by name and products by
 * name within their category, in one transaction. Parents are linked after all categories exist,
 * so the file's order does not matter.
 */
export async function importCatalogue(
  db: Db,
  catalogue: Catalogue,
): Promise<{ categories: number; products: number }> {
  return db.$transaction(
    async (tx) => {
      const ids = new Map<string, number>();
      for (const c of catalogue.categories) {
        const fields = {
          description: c.description ?? '',
          sortOrder: c.sort_order ?? 0,
          active: c.active ?? true,
        };
        const row = await tx.category.upsert({
          where: { name: c.name },
          create: { name: c.name, ...fields },
          update: fields,
          select: { id: true },
        });
        ids.set(c.name, row.id);
      }
      const idOf = async (name: string): Promise<number> => {
        const known = ids.get(name);
        if (known !== undefined) return known;
        const row = await tx.category.findUniqueOrThrow({ where: { name }, select: { id: true } });
        ids.set(name, row.id);
        return row.id;
      };
      for (const c of catalogue.categories) {
        await tx.category.update({
          where: { name: c.name },
          data: { parentId: c.parent ? await idOf(c.parent) : null },
        });
      }
      for (const p of catalogue.products) {
        const categoryId = await idOf(p.category);
        const fields = {
          description: p.description ?? '',
          price: p.price.toFixed(2),
          stock: p.stock,
          active: p.active ?? true,
        };
        await tx.product.upsert({
          where: { categoryId_name: { categoryId, name: p.name } },
          create: { name: p.name, categoryId, ...fields },
          update: fields,
        });
      }
      return { categories: catalogue.categories.length, products: catalogue.products.length };
    },
    { timeout: 10 * 60_000, maxWait: 30_000 },
  );
}
