import type { FastifyInstance } from 'fastify';
import { importCatalogue, type Catalogue } from '../../src/modules/catalogue-import/service.js';

/** A small catalogue with a nested category tree, loaded through the import code path. */
export const TEST_CATALOGUE: Catalogue = {
  categories: [
    { name: 'Dogs', description: 'Everything for dogs', parent: null, sort_order: 2 },
    { name: 'Leads', description: 'Leads', parent: 'Dogs', sort_order: 1 },
    { name: 'Tracking leads', description: 'Long leads', parent: 'Leads', sort_order: 1 },
    { name: 'Optics', description: 'Binoculars', parent: null, sort_order: 1 },
    { name: 'Archive', description: 'Retired', parent: null, sort_order: 3, active: false },
  ],
  products: [
    {
      name: 'Red tracking lead',
      description: 'Biothane, 10 m',
      price: 39.9,
      category: 'Tracking leads',
      stock: 5,
    },
    {
      name: 'Blue lead',
      description: 'Short leather lead',
      price: 19.99,
      category: 'Leads',
      stock: 10,
    },
    {
      name: 'Dog bowl',
      description: 'Steel bowl for travel',
      price: 9.5,
      category: 'Dogs',
      stock: 100,
    },
    {
      name: 'Binoculars 8x42',
      description: 'Bright optics for dusk',
      price: 499,
      category: 'Optics',
      stock: 3,
    },
    {
      name: 'Old collar',
      description: 'Discontinued red collar',
      price: 5,
      category: 'Dogs',
      stock: 1,
      active: false,
    },
  ],
};

export async function seedCatalogue(app: FastifyInstance, catalogue: Catalogue = TEST_CATALOGUE) {
  await importCatalogue(app.db, catalogue);
  const products = await app.db.product.findMany({ select: { id: true, name: true } });
  const categories = await app.db.category.findMany({ select: { id: true, name: true } });
  return {
    productId: (name: string) => products.find((p) => p.name === name)!.id,
    categoryId: (name: string) => categories.find((c) => c.name === name)!.id,
  };
}
