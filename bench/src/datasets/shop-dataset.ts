// The shop's benchmark data set, generated from a fixed seed: 50 nested categories, N products
// (through the shop's own `catalogue:import` command), customers and 10 reviews per product.
// Reviews have no import path, so customers and reviews are written in bulk with multi-row
// INSERTs from arrays.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '@dogshop/service-kit';
import type { Catalogue } from '@dogshop/shop/catalogue-import';
import pg from 'pg';
import { runShopCommand } from '../infra/shop-database.js';
import { Random } from './random.js';

export const SHOP_SEED = 20_261_121;
/** Bump when the generator changes, so that cached data sets are rebuilt. */
export const SHOP_DATASET_VERSION = 1;
export const CATEGORY_COUNT = 50;
export const REVIEWS_PER_PRODUCT = 10;
export const CUSTOMER_COUNT = 2_000;
/** Every generated customer has this password (hashed once with the service's parameters). */
export const CUSTOMER_PASSWORD = 'bench-password-2026';
export const customerEmail = (i: number) => `customer${i}@bench.example`;

const ROOTS = ['Hunting equipment', 'Dog equipment', 'Training', 'Clothing', 'Care & health'];
const CHILD_WORDS = ['Essentials', 'Professional', 'Outdoor'];
const GRANDCHILD_WORDS = ['Classic', 'Premium'];

export const MATERIALS = [
  'leather',
  'biothane',
  'nylon',
  'cotton',
  'steel',
  'rubber',
  'wool',
  'canvas',
  'neoprene',
  'bamboo',
];
export const NOUNS = [
  'lead',
  'collar',
  'harness',
  'whistle',
  'tracker',
  'vest',
  'jacket',
  'blanket',
  'bowl',
  'brush',
  'dummy',
  'bag',
  'muzzle',
  'boots',
  'bandana',
  'crate',
  'kennel',
  'leash',
  'rope',
  'toy',
];
const ADJECTIVES = [
  'robust',
  'light',
  'waterproof',
  'reflective',
  'padded',
  'compact',
  'classic',
  'heavy-duty',
  'adjustable',
  'quiet',
  'bright',
  'soft',
];
/** Review and description phrases (the bulk loader writes its reviews from the same list). */
export const PHRASES = [
  'made for long tracks in wet terrain',
  'tested by professional handlers',
  'easy to clean after a day in the field',
  'keeps its shape in frost and rain',
  'suits small and large breeds',
  'with a lifetime repair promise',
  'stitched by hand in a small workshop',
  'visible from far away in the forest',
  'quiet enough for the stalk',
  'a favourite of blood-tracking teams',
];
const FIRST_NAMES = ['Anna', 'Jonas', 'Lea', 'Finn', 'Mia', 'Paul', 'Lena', 'Lukas', 'Emma', 'Ben'];
const LAST_NAMES = ['Bergmann', 'Köhler', 'Weiß', 'Brückner', 'Ostermann', 'Jäger', 'Förster'];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Categories: 5 roots, 3 children each, 2 grandchildren per child (50 in all, 3 levels). */
function categories(): Catalogue['categories'] {
  const list: Catalogue['categories'] = [];
  ROOTS.forEach((root, r) => {
    list.push({ name: root, description: `${root} for working dogs`, parent: null, sort_order: r });
    CHILD_WORDS.forEach((child, c) => {
      const childName = `${root}: ${child}`;
      list.push({ name: childName, description: '', parent: root, sort_order: c });
      GRANDCHILD_WORDS.forEach((grand, g) => {
        list.push({
          name: `${childName} ${grand}`,
          description: '',
          parent: childName,
          sort_order: g,
        });
      });
    });
  });
  if (list.length !== CATEGORY_COUNT) throw new Error(`expected ${CATEGORY_COUNT} categories`);
  return list;
}

/** The catalogue file (import format) for `products` products. */
export function generateCatalogue(products: number, seed = SHOP_SEED): Catalogue {
  const random = new Random(seed);
  const cats = categories();
  const list: Catalogue['products'] = [];
  for (let i = 1; i <= products; i += 1) {
    const material = random.pick(MATERIALS);
    const noun = random.pick(NOUNS);
    const adjective = random.pick(ADJECTIVES);
    const description = [
      `${cap(adjective)} ${material} ${noun}, ${random.pick(PHRASES)}.`,
      `Pairs well with our ${random.pick(MATERIALS)} ${random.pick(NOUNS)}.`,
      `${cap(random.pick(PHRASES))}.`,
    ].join(' ');
    list.push({
      name: `${cap(adjective)} ${material} ${noun} No. ${String(i).padStart(6, '0')}`,
      description,
      price: random.int(250, 49_999) / 100,
      category: random.pick(cats).name,
      // Large stock: the order benchmark must never run out (the hot-product run sets its own).
      stock: random.int(500_000, 1_000_000),
      active: random.chance(0.97),
    });
  }
  return { categories: cats, products: list };
}

export interface ShopDatasetSummary {
  categories: number;
  products: number;
  activeProducts: number;
  customers: number;
  reviews: number;
  seed: number;
  importSeconds: number;
  bulkSeconds: number;
}

/** Loads the data set into an empty, migrated shop database. */
export async function loadShopDataset(
  databaseUrl: string,
  products: number,
  log: (line: string) => void,
): Promise<ShopDatasetSummary> {
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-catalogue-'));
  try {
    const file = path.join(dir, 'catalogue.json');
    writeFileSync(file, JSON.stringify(generateCatalogue(products)));
    // One transaction of one upsert per product: about 200 a second, plus the CLI's start.
    await runShopCommand(databaseUrl, ['catalogue:import', file], 60_000 + products * 20);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const importSeconds = (Date.now() - started) / 1000;
  log(`  imported ${products} products in ${importSeconds.toFixed(1)} s (catalogue:import)`);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids = async (table: string) =>
    (await client.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map(
      (row) => row.id,
    );
  try {
    const bulkStarted = Date.now();
    const random = new Random(SHOP_SEED + products);
    // One hash for every customer: hashing 2,000 passwords would cost a minute and prove nothing.
    const passwordHash = await hashPassword(CUSTOMER_PASSWORD);
    const customers = Array.from({ length: CUSTOMER_COUNT }, (_, i) => ({
      email: customerEmail(i + 1),
      firstName: random.pick(FIRST_NAMES),
      lastName: random.pick(LAST_NAMES),
    }));
    await client.query(
      `INSERT INTO customers (email, password_hash, first_name, last_name)
       SELECT email, $2, first_name, last_name
         FROM unnest($1::text[], $3::text[], $4::text[]) AS c(email, first_name, last_name)`,
      [
        customers.map((c) => c.email),
        passwordHash,
        customers.map((c) => c.firstName),
        customers.map((c) => c.lastName),
      ],
    );
    const customerIds = await ids('customers');
    const now = Date.parse('2026-11-01T00:00:00Z');
    const twoYears = 2 * 365 * 24 * 3600 * 1000;
    // One array per column, unnested into rows: 10,000 reviews a statement.
    const noReviews = (): unknown[][] => [[], [], [], [], [], [], []];
    let batch = noReviews();
    let reviews = 0;
    const flush = async () => {
      const result = await client.query(
        `INSERT INTO reviews
           (product_id, customer_id, rating, title, comment, helpful_count, created_at)
         SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::int[],
                              $7::timestamptz[])`,
        batch,
      );
      reviews += result.rowCount ?? 0;
      batch = noReviews();
    };
    for (const productId of await ids('products')) {
      for (const index of random.distinct(REVIEWS_PER_PRODUCT, 0, customerIds.length - 1)) {
        const rating = random.pick([5, 5, 5, 4, 4, 4, 3, 2, 1]);
        const row = [
          productId,
          customerIds[index]!,
          rating,
          `${cap(random.pick(ADJECTIVES))} and worth it`,
          `${cap(random.pick(PHRASES))}; ${random.pick(PHRASES)}. Rated ${rating} of 5.`,
          random.int(0, 20),
          new Date(now - Math.floor(random.next() * twoYears)).toISOString(),
        ];
        row.forEach((value, column) => batch[column]!.push(value));
      }
      if (batch[0]!.length >= 10_000) await flush();
    }
    if (batch[0]!.length > 0) await flush();
    const bulkSeconds = (Date.now() - bulkStarted) / 1000;
    log(
      `  created ${customers.length} customers, ${reviews} reviews in ${bulkSeconds.toFixed(1)} s (INSERT from arrays)`,
    );
    const active = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM products WHERE active',
    );
    return {
      categories: CATEGORY_COUNT,
      products,
      activeProducts: active.rows[0]!.n,
      customers: customers.length,
      reviews,
      seed: SHOP_SEED,
      importSeconds,
      bulkSeconds,
    };
  } finally {
    await client.end();
  }
}
