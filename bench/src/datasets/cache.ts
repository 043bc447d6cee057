// Data sets are built once into template databases of the bench's own PostgreSQL cluster
// (bench/.data, git-ignored) and cloned for every run, so a run starts from the same data and the
// orders it writes never leak into the next one.
import type { Context } from '../context.js';
import { migrateShopDatabase } from '../infra/shop-database.js';
import { loadShopDataset, SHOP_DATASET_VERSION, type ShopDatasetSummary } from './shop-dataset.js';

export const datasetName = (products: number) =>
  `dataset_shop_${products}_v${SHOP_DATASET_VERSION}`;

/** A data set's summary, kept as the comment of its template database (null while unfinished). */
export async function description(ctx: Context, database: string): Promise<string | null> {
  const rows = await ctx.pg.query<{ d: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS d FROM pg_database WHERE datname = $1`,
    [database],
  );
  return rows[0]?.d ?? null;
}

/** The template database of the `products` data set, built when missing; migrated to the latest schema. */
export async function ensureShopDataset(
  ctx: Context,
  products: number,
): Promise<{ database: string; summary: ShopDatasetSummary; built: boolean }> {
  const database = datasetName(products);
  let built = false;
  if (!(await ctx.pg.databaseExists(database)) || !(await description(ctx, database))) {
    ctx.log(`building the shop data set: ${products} products (cached in ${ctx.options.dataDir})`);
    const building = `${database}_building`;
    await ctx.pg.recreateDatabase(building);
    await migrateShopDatabase(ctx.pg.url(building));
    const summary = await loadShopDataset(ctx.pg.url(building), products, ctx.log);
    await ctx.pg.query('VACUUM ANALYZE', [], building);
    await ctx.pg.query(
      `COMMENT ON DATABASE "${building}" IS '${JSON.stringify(summary).replaceAll("'", "''")}'`,
    );
    await ctx.pg.dropDatabase(database);
    await ctx.pg.renameDatabase(building, database);
    built = true;
  }
  // A migration added since the data set was built (an index, say) applies to it here.
  const migrated = await migrateShopDatabase(ctx.pg.url(database));
  if (!migrated.includes('no pending migrations')) {
    ctx.log(`  ${database}: ${migrated}`);
    await ctx.pg.query('VACUUM ANALYZE', [], database);
  }
  const summary = JSON.parse((await description(ctx, database))!) as ShopDatasetSummary;
  return { database, summary, built };
}

/** A fresh working copy of a data set (orders written by a run stay in the copy). */
export async function cloneDataset(ctx: Context, template: string, name: string): Promise<string> {
  await ctx.pg.recreateDatabase(name, template);
  return name;
}
