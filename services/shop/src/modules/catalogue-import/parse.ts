// The catalogue file: its schema and the whole-file validation (pure; no database).
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

// Names and references are trimmed before these checks (see `entries`), so a blank name fails
// minLength and " Leads " refers to "Leads".
const CategoryEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    parent: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// `price` has no `multipleOf: 0.01`: binary floats make that test wrong for valid prices such as
// 99999999.99, so cents are checked on the number's decimal text instead (`hasCents`).
const ProductEntrySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300 }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    price: Type.Number({ minimum: 0, maximum: 99_999_999.99 }),
    category: Type.String({ minLength: 1, maxLength: 200 }),
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

/** Categories already in the database: name → parent name (null for a root). */
export type ExistingCategories = ReadonlyMap<string, string | null>;

const TRIMMED_FIELDS = ['name', 'parent', 'category'];

type Section = 'categories' | 'products';

/** Problems found so far; reported in file order (file-level first, then by section and index). */
class Problems {
  private readonly list: Array<{ rank: number; index: number; text: string }> = [];

  file(text: string): void {
    this.list.push({ rank: 0, index: 0, text });
  }

  entry(section: Section, index: number, name: unknown, text: string): void {
    const label =
      typeof name === 'string' && name !== ''
        ? `${section}[${index}] "${name}"`
        : `${section}[${index}]`;
    this.list.push({ rank: section === 'categories' ? 1 : 2, index, text: `${label}: ${text}` });
  }

  get texts(): string[] {
    return [...this.list].sort((a, b) => a.rank - b.rank || a.index - b.index).map((p) => p.text);
  }
}

/**
 * Validates a whole catalogue file and reports every bad entry (not just the first), each with
 * its index in the file and its name, so that an import either writes everything or nothing.
 * Category references must name a category of the file or one already in the database; parents
 * must not form a cycle, also through categories of the database that the file re-parents.
 */
export function parseCatalogue(
  text: string,
  existing: ExistingCategories = new Map(),
): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return {
      ok: false,
      errors: ['the file must be an object {"categories": [...], "products": [...]}'],
    };
  }
  const root = json as Record<string, unknown>;
  const problems = new Problems();
  for (const key of Object.keys(root)) {
    if (key !== 'categories' && key !== 'products')
      problems.file(`unknown top-level field "${key}"`);
  }
  const categories = entries(root.categories, 'categories', CategoryEntrySchema, problems);
  const products = entries(root.products, 'products', ProductEntrySchema, problems, (p) =>
    hasCents(p.price) ? undefined : `price ${p.price} has more than two decimals`,
  );

  // Names of every category entry, valid or not, so that a bad category is reported once rather
  // than again by each entry that refers to it.
  const known = (name: string) => categories.names.has(name) || existing.has(name);
  const firstIndex = new Map<string, number>();
  for (const { index, value } of categories.valid) {
    const seen = firstIndex.get(value.name);
    if (seen !== undefined) {
      problems.entry('categories', index, value.name, `duplicate of categories[${seen}]`);
    } else firstIndex.set(value.name, index);
    if (value.parent && !known(value.parent)) {
      problems.entry(
        'categories',
        index,
        value.name,
        `parent "${value.parent}" is not a known category`,
      );
    }
  }
  for (const cycle of parentCycles(categories.valid, existing)) {
    problems.entry('categories', cycle.index, cycle.name, `parents form a cycle (${cycle.path})`);
  }
  const productKeys = new Map<string, number>();
  for (const { index, value } of products.valid) {
    if (!known(value.category)) {
      problems.entry(
        'products',
        index,
        value.name,
        `category "${value.category}" is not a known category`,
      );
    }
    const key = `${value.category}\u0000${value.name}`;
    const seen = productKeys.get(key);
    if (seen !== undefined) {
      problems.entry(
        'products',
        index,
        value.name,
        `duplicate of products[${seen}] in "${value.category}"`,
      );
    } else productKeys.set(key, index);
  }
  const errors = problems.texts;
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    catalogue: {
      categories: categories.valid.map((c) => c.value),
      products: products.valid.map((p) => p.value),
    },
  };
}

/** True when the number's shortest decimal form has at most two decimals (JSON 19.90 is 19.9). */
const hasCents = (value: number) => /^\d+(\.\d{1,2})?$/.test(String(value));

interface Entries<T> {
  /** Entries that passed, with their index in the file. */
  valid: Array<{ index: number; value: T }>;
  /** The names of all entries that have one, valid or not. */
  names: Set<string>;
}

function entries<T extends typeof CategoryEntrySchema | typeof ProductEntrySchema>(
  list: unknown,
  section: Section,
  schema: T,
  problems: Problems,
  check: (value: Static<T>) => string | undefined = () => undefined,
): Entries<Static<T>> {
  const result: Entries<Static<T>> = { valid: [], names: new Set() };
  if (list === undefined) return result;
  if (!Array.isArray(list)) {
    problems.file(`"${section}" must be an array`);
    return result;
  }
  list.forEach((raw: unknown, index) => {
    const entry = trimmed(raw);
    const name =
      typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
    if (typeof name === 'string' && name !== '') result.names.add(name);
    const first = Value.Errors(schema, entry)[0];
    const problem = first ? describe(first) : check(entry as Static<T>);
    if (problem) problems.entry(section, index, name, problem);
    else result.valid.push({ index, value: entry as Static<T> });
  });
  return result;
}

/** "price must be >= 0", "unknown field "colour"", "missing price": the field and the rule. */
function describe(error: {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: unknown;
  message: string;
}): string {
  const field = error.instancePath.slice(1).replaceAll('/', '.');
  if (error.schemaPath.endsWith('/additionalProperties')) return `unknown field "${field}"`;
  if (error.keyword === 'required') {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    return `missing ${missing.join(', ')}`;
  }
  return `${field || 'entry'} ${error.message}`;
}

/** A copy of an entry with its name and references trimmed; anything else is returned as is. */
function trimmed(entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
  const copy: Record<string, unknown> = { ...entry };
  for (const key of TRIMMED_FIELDS) {
    const value = copy[key];
    if (typeof value === 'string') copy[key] = value.trim();
  }
  return copy;
}

/**
 * After the import, a category's parent is the file's (for categories of the file) or the one it
 * already has. Each category of the file that is on a cycle of that tree is reported, with the
 * cycle; one that merely leads into a cycle is not (the cycle's members are).
 */
function parentCycles(
  categories: Array<{ index: number; value: CategoryEntry }>,
  existing: ExistingCategories,
): Array<{ index: number; name: string; path: string }> {
  const parentOf = new Map(existing);
  for (const { value } of categories) parentOf.set(value.name, value.parent ?? null);
  const cycles: Array<{ index: number; name: string; path: string }> = [];
  for (const { index, value } of categories) {
    const path = [value.name];
    const seen = new Set(path);
    for (let at = parentOf.get(value.name); at; at = parentOf.get(at)) {
      path.push(at);
      if (at === value.name) {
        cycles.push({ index, name: value.name, path: path.join(' → ') });
        break;
      }
      if (seen.has(at)) break;
      seen.add(at);
    }
  }
  return cycles;
}
