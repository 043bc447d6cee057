import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CategoryListResponseSchema } from '@dogshop/contracts/shop';
import {
  existingCategories,
  importCatalogue,
  parseCatalogue,
  type Catalogue,
  type ParseResult,
} from '../src/modules/catalogue-import/service.js';
import { demoCatalogue } from '../src/modules/catalogue-import/demo-catalogue.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract } from './support/contract.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function accepted(result: ParseResult): Catalogue {
  if (!result.ok) throw new Error(`expected the catalogue to parse:\n${result.errors.join('\n')}`);
  return result.catalogue;
}

function refused(result: ParseResult): string[] {
  if (result.ok) throw new Error('expected the catalogue to be refused');
  return result.errors;
}

/** Parses against the test database's categories, as the CLI does. */
const parse = async (catalogue: unknown) =>
  parseCatalogue(JSON.stringify(catalogue), await existingCategories(t.app.db));

const counts = async () => ({
  categories: await t.app.db.category.count(),
  products: await t.app.db.product.count(),
});

/** The stored catalogue without timestamps, for before/after comparisons. */
async function snapshot() {
  const categories = await t.app.db.category.findMany({
    select: {
      id: true,
      name: true,
      description: true,
      parentId: true,
      sortOrder: true,
      active: true,
    },
    orderBy: { id: 'asc' },
  });
  const products = await t.app.db.product.findMany({
    select: {
      id: true,
      name: true,
      description: true,
      price: true,
      categoryId: true,
      stock: true,
      active: true,
    },
    orderBy: { id: 'asc' },
  });
  return {
    categories,
    products: products.map((p) => ({ ...p, price: p.price.toFixed(2) })),
  };
}

const categoryOf = (name: string) =>
  t.app.db.category.findUniqueOrThrow({
    where: { name },
    select: { id: true, parent: { select: { name: true } } },
  });

describe('parseCatalogue', () => {
  it('lists every bad entry of a file, with its index and name, and only those', () => {
    expect(refused(parseCatalogue(fixture('bad-catalogue.json')))).toEqual([
      'categories[1]: name must not have fewer than 1 characters',
      'categories[3] "Whistles": parent "Nowhere" is not a known category',
      'categories[4] "Optics": sort_order must be integer',
      'products[1] "Negative lead": price must be >= 0',
      'products[2] "Fraction lead": price 12.345 has more than two decimals',
      'products[3] "Lost lead": category "Missing category" is not a known category',
      'products[4] "Wordy lead": stock must be integer',
      'products[5] "Coloured lead": unknown field "colour"',
      'products[7] "Leather lead": duplicate of products[0] in "Leads"',
    ]);
  });

  it('accepts the good fixture and the demo catalogue', () => {
    const catalogue = accepted(parseCatalogue(fixture('catalogue.json')));
    expect(catalogue.categories).toHaveLength(5);
    expect(catalogue.products).toHaveLength(6);
    expect(accepted(parseCatalogue(JSON.stringify(demoCatalogue())))).toEqual(demoCatalogue());
  });

  it('names file indices even after an invalid entry, and reports duplicate categories', () => {
    const errors = refused(
      parseCatalogue(
        JSON.stringify({
          categories: [{ name: 'A' }, { name: 'B', active: 'yes' }, { name: 'A' }],
          products: [{ name: 'P', category: 'A' }],
        }),
      ),
    );
    expect(errors).toEqual([
      'categories[1] "B": active must be boolean',
      'categories[2] "A": duplicate of categories[0]',
      'products[0] "P": missing price, stock',
    ]);
  });

  it('checks prices to the cent on their decimal value', () => {
    // Prices as JSON text, as they appear in a file.
    const withPrice = (price: string) =>
      parseCatalogue(
        `{"categories":[{"name":"C"}],"products":[{"name":"P","category":"C","stock":1,"price":${price}}]}`,
      );
    for (const ok of ['0', '19.90', '19.99', '0.07', '1.15', '99999999.99']) {
      expect([ok, withPrice(ok).ok]).toEqual([ok, true]);
    }
    for (const bad of ['1.005', '0.001', '100000000', '-0.01']) {
      expect([bad, withPrice(bad).ok]).toEqual([bad, false]);
    }
  });

  it('trims names and references, and refuses blank ones', () => {
    const catalogue = accepted(
      parseCatalogue(
        JSON.stringify({
          categories: [{ name: ' Dogs ' }, { name: 'Leads', parent: '  Dogs' }],
          products: [{ name: ' Lead ', category: 'Leads ', price: 1, stock: 1 }],
        }),
      ),
    );
    expect(catalogue.categories.map((c) => [c.name, c.parent])).toEqual([
      ['Dogs', undefined],
      ['Leads', 'Dogs'],
    ]);
    expect(catalogue.products[0]).toMatchObject({ name: 'Lead', category: 'Leads' });
    expect(
      refused(
        parseCatalogue(
          JSON.stringify({ products: [{ name: '  ', category: 'X', price: 1, stock: 1 }] }),
        ),
      ),
    ).toEqual(['products[0]: name must not have fewer than 1 characters']);
  });

  it('refuses files that are not a catalogue', () => {
    expect(refused(parseCatalogue('{"categories": ['))[0]).toMatch(/^not valid JSON/);
    expect(refused(parseCatalogue('[]'))).toEqual([
      'the file must be an object {"categories": [...], "products": [...]}',
    ]);
    expect(refused(parseCatalogue('{"categories": {}, "extra": 1}'))).toEqual([
      'unknown top-level field "extra"',
      '"categories" must be an array',
    ]);
  });

  it('detects parent cycles in the file, naming the categories on the cycle', () => {
    const errors = refused(
      parseCatalogue(
        JSON.stringify({
          categories: [
            { name: 'A', parent: 'B' },
            { name: 'B', parent: 'A' },
            { name: 'Below A', parent: 'A' },
            { name: 'Self', parent: 'Self' },
            { name: 'Fine', parent: null },
          ],
        }),
      ),
    );
    expect(errors).toEqual([
      'categories[0] "A": parents form a cycle (A → B → A)',
      'categories[1] "B": parents form a cycle (B → A → B)',
      'categories[3] "Self": parents form a cycle (Self → Self)',
    ]);
  });
});

describe('importCatalogue', () => {
  it('imports a file whose children come before their parents, linking every parent', async () => {
    const summary = await importCatalogue(
      t.app.db,
      accepted(await parse(JSON.parse(fixture('catalogue.json')))),
    );
    expect(summary).toEqual({ categories: 5, products: 6 });
    expect((await categoryOf('Tracking leads')).parent?.name).toBe('Leads');
    expect((await categoryOf('Leads')).parent?.name).toBe('Dog gear');
    expect((await categoryOf('Dog gear')).parent).toBeNull();
    const lead = await t.app.db.product.findFirstOrThrow({
      where: { name: 'Tracking lead 10 m' },
      include: { category: true },
    });
    expect({
      price: lead.price.toFixed(2),
      stock: lead.stock,
      category: lead.category.name,
    }).toEqual({
      price: '39.90',
      stock: 40,
      category: 'Tracking leads',
    });
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await snapshot();
    await importCatalogue(t.app.db, accepted(await parse(JSON.parse(fixture('catalogue.json')))));
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the stock movements adding up: opening stock, each change, nothing when unchanged', async () => {
    const file = JSON.parse(fixture('catalogue.json'));
    await importCatalogue(t.app.db, accepted(await parse(file)));
    const movementsOf = (name: string) =>
      t.app.db.stockMovement.findMany({
        where: { product: { name } },
        orderBy: { id: 'asc' },
        select: { kind: true, delta: true, stock: true },
      });
    const before = await movementsOf('Tracking lead 15 m');
    file.products.find((p: { name: string }) => p.name === 'Tracking lead 15 m').stock = 20;
    file.products.push({ name: 'Kennel mat', price: 29, category: 'Dog gear', stock: 3 });
    await importCatalogue(t.app.db, accepted(await parse(file)));
    expect((await movementsOf('Tracking lead 15 m')).slice(before.length)).toEqual([
      { kind: 'import', delta: 8, stock: 20 },
    ]);
    expect(await movementsOf('Kennel mat')).toEqual([{ kind: 'created', delta: 3, stock: 3 }]);
    expect(await movementsOf('Tracking lead 10 m')).toEqual([
      { kind: 'created', delta: 40, stock: 40 },
    ]);
    // Every product's movements add up to its stock.
    const sums = await t.app.db.stockMovement.groupBy({ by: ['productId'], _sum: { delta: true } });
    const stocks = await t.app.db.product.findMany({ select: { id: true, stock: true } });
    expect(Object.fromEntries(sums.map((m) => [m.productId, m._sum.delta]))).toEqual(
      Object.fromEntries(stocks.map((p) => [p.id, p.stock])),
    );
  });

  it('updates a changed price in place (product matched by name within its category)', async () => {
    const file = JSON.parse(fixture('catalogue.json'));
    const before = await t.app.db.product.findFirstOrThrow({ where: { name: 'Leather lead' } });
    file.products.find((p: { name: string }) => p.name === 'Leather lead').price = 24.5;
    await importCatalogue(t.app.db, accepted(await parse(file)));
    const after = await t.app.db.product.findFirstOrThrow({ where: { name: 'Leather lead' } });
    expect({ id: after.id, price: after.price.toFixed(2) }).toEqual({
      id: before.id,
      price: '24.50',
    });
    expect(await t.app.db.product.count({ where: { name: 'Leather lead' } })).toBe(1);
  });

  it('matches categories by name and products by name within their category', async () => {
    const before = await counts();
    const optics = await categoryOf('Optics');
    await importCatalogue(
      t.app.db,
      accepted(
        await parse({
          categories: [{ name: 'Optics', description: 'Scopes too', sort_order: 3 }],
          // Same product name in another category: a second product, not a move.
          products: [{ name: 'Leather lead', price: 30, category: 'Optics', stock: 1 }],
        }),
      ),
    );
    const updated = await t.app.db.category.findUniqueOrThrow({ where: { name: 'Optics' } });
    expect({
      id: updated.id,
      description: updated.description,
      sortOrder: updated.sortOrder,
    }).toEqual({
      id: optics.id,
      description: 'Scopes too',
      sortOrder: 3,
    });
    expect(await counts()).toEqual({
      categories: before.categories,
      products: before.products + 1,
    });
    const leads = await t.app.db.product.findMany({
      where: { name: 'Leather lead' },
      select: { price: true, category: { select: { name: true } } },
      orderBy: { id: 'asc' },
    });
    expect(leads.map((p) => [p.category.name, p.price.toFixed(2)])).toEqual([
      ['Leads', '24.50'],
      ['Optics', '30.00'],
    ]);
  });

  it('links a parent given by the name of a category already in the database', async () => {
    const result = await parse({
      categories: [{ name: 'Blood tracking', parent: 'Tracking leads', sort_order: 1 }],
      products: [{ name: 'Tracking collar', price: 12, category: 'Dog gear', stock: 2 }],
    });
    await importCatalogue(t.app.db, accepted(result));
    expect((await categoryOf('Blood tracking')).parent?.name).toBe('Tracking leads');
    const collar = await t.app.db.product.findFirstOrThrow({
      where: { name: 'Tracking collar' },
      select: { category: { select: { name: true } } },
    });
    expect(collar.category.name).toBe('Dog gear');
  });

  it('refuses a cycle through categories of the database', async () => {
    // Stored: Dog gear ← Leads ← Tracking leads. Putting Dog gear under Tracking leads closes a loop.
    const errors = refused(
      await parse({ categories: [{ name: 'Dog gear', parent: 'Tracking leads' }] }),
    );
    expect(errors).toEqual([
      'categories[0] "Dog gear": parents form a cycle (Dog gear → Tracking leads → Leads → Dog gear)',
    ]);
    expect((await categoryOf('Dog gear')).parent).toBeNull();
  });

  it('writes nothing when one entry among good ones is bad', async () => {
    const before = await snapshot();
    const file = {
      categories: [{ name: 'Kennels', description: 'New' }],
      products: [
        { name: 'Travel kennel', price: 89, category: 'Kennels', stock: 3 },
        { name: 'Kennel mat', price: 'cheap', category: 'Kennels', stock: 3 },
        { name: 'Leather lead', price: 99, category: 'Leads', stock: 1 },
      ],
    };
    expect(refused(await parse(file))).toEqual(['products[1] "Kennel mat": price must be number']);
    expect(await snapshot()).toEqual(before);
  });

  it('rolls back every write when the import fails part-way', async () => {
    const before = await snapshot();
    // Bypasses parseCatalogue: the unknown category only shows once the categories are written.
    const invalid: Catalogue = {
      categories: [{ name: 'Half-written', description: 'Must not survive' }],
      products: [{ name: 'Orphan', price: 1, category: 'No such category', stock: 1 }],
    };
    await expect(importCatalogue(t.app.db, invalid)).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });

  it('leaves the categories listed by the API in sort_order, then name, active only', async () => {
    const res = await t.request({ method: 'GET', url: '/categories' });
    expectContract(CategoryListResponseSchema, res.json());
    const listed = res.json().data as Array<{
      name: string;
      sort_order: number;
      parent_id: number | null;
    }>;
    expect(listed.map((c) => [c.sort_order, c.name])).toEqual([
      [1, 'Blood tracking'],
      [1, 'Leads'],
      [1, 'Tracking leads'],
      [2, 'Dog gear'],
      [3, 'Optics'],
    ]);
    const dogGear = listed.find((c) => c.name === 'Dog gear');
    expect(listed.find((c) => c.name === 'Leads')?.parent_id).toBe(
      (await categoryOf('Dog gear')).id,
    );
    expect(dogGear?.parent_id).toBeNull();
  });
});
