// `pnpm bench`: starts the databases, loads the data sets, starts the services as real servers on
// loopback, runs each comparison in interleaved rounds and writes bench/results/<date>.md + .json.
// BENCH_DURATION (default 10s), BENCH_ROUNDS (3), BENCH_SCALES (1000,100000,1000000),
// --only B2,B3,F,P,SCALING,W1,PAGES,L (L-FUZZ, L-EXPORT, L-WEBHOOKS: the test suites' load-sized
// runs at full size).
import os from 'node:os';
import {
  hotProductRun,
  catalogueFacts,
  detailBench,
  listBench,
  loginBench,
  orderBench,
  reviewsBench,
  searchBench,
} from './benchmarks/shop-benchmarks.js';
import { DB_CONNECTIONS, measureRoute, type RouteBench } from './benchmarks/shop-routes.js';
import { shopHeaders } from './benchmarks/shop-sql.js';
import { exportBench, exportComparison, publicListBench } from './benchmarks/handler-benchmarks.js';
import { pagesBench } from './benchmarks/page-benchmarks.js';
import {
  S1M_PRODUCTS,
  searchScaleComparison,
  searchScaleRun,
  type SearchScaleRun,
} from './benchmarks/search-scale.js';
import { backOfficeBench } from './benchmarks/back-office-benchmarks.js';
import { LOAD_TESTS, runLoadTest, wantsLoadTest } from './benchmarks/load-tests.js';
import { peerRuns } from './benchmarks/peer-benchmarks.js';
import { floorRuns, wantsFloor } from './benchmarks/floor-benchmarks.js';
import { W1_CONNECTIONS, W1_SHOP_ENV, webhookBench } from './benchmarks/webhook-benchmarks.js';
import { drainCpuBench, summarizeDrainProfile } from './benchmarks/webhook-drain-cpu.js';
import { B1_CONNECTIONS, B1_PIPELINING, pluginStackBench } from './benchmarks/plugin-stack.js';
import { wants, type Context, type Options } from './context.js';
import { cloneDataset, ensureShopDataset } from './datasets/cache.js';
import {
  BULK_FROM,
  BULK_LOADED_BY,
  checkShopTotals,
  ensureBulkShopDataset,
} from './datasets/bulk-shop-dataset.js';
import { generateHandlers, HANDLER_SEED, loadHandlerDataset } from './datasets/handler-dataset.js';
import { REVIEWS_PER_PRODUCT } from './datasets/shop-dataset.js';
import { pgbenchVersion } from './infra/pgbench.js';
import { startPostgres, type BenchPostgres } from './infra/postgres.js';
import { freePort } from '@dogshop/child-processes';
import {
  MONGO_POOL_MAX,
  SHOP_POOL_MAX,
  startHandlerDirectory,
  startMongoStandIn,
  startShop,
  type RunningService,
} from './infra/services.js';
import { openDirectoryDb } from '@dogshop/handler-directory/db/connection';
import { parseOptions } from './options.js';
import { wantsPeer } from './peer/queries.js';
import { writeReport } from './report.js';
import type { Report, ScalingRow } from './results.js';
import { dependencyVersions } from './versions.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const log = (line: string) => console.log(line);

function newReport(options: Options, argv: string[]): Report {
  const now = new Date();
  const cpus = os.cpus();
  return {
    date: now.toISOString().slice(0, 10),
    startedAt: now.toISOString(),
    finishedAt: '',
    command: ['pnpm bench', ...argv].join(' '),
    settings: {
      durationSeconds: options.durationSeconds,
      rounds: options.rounds,
      only: options.only ? [...options.only] : null,
      scales: [options.products, ...options.scales].sort((a, b) => a - b),
      connections: {
        B1: B1_CONNECTIONS,
        'B1 pipelining': B1_PIPELINING,
        'B2–B4 (headline, extra)': DB_CONNECTIONS[0]!,
        'B2–B4 extra': DB_CONNECTIONS[1]!,
        'P (shop and peer)': DB_CONNECTIONS[0]!,
        'pgbench clients': SHOP_POOL_MAX,
        B6: MONGO_POOL_MAX,
        W1: W1_CONNECTIONS,
      },
    },
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? 'unknown',
      memoryGb: os.totalmem() / 1024 ** 3,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadAverageBefore: os.loadavg(),
      loadAverageAfter: [],
    },
    versions: dependencyVersions(),
    pools: {
      'shop DATABASE_POOL_MAX (pg pool under Prisma)': SHOP_POOL_MAX,
      'handler directory Mongoose maxPoolSize': MONGO_POOL_MAX,
      'pgbench clients': SHOP_POOL_MAX,
      'native driver maxPoolSize (B6)': MONGO_POOL_MAX,
      'libuv thread pool (UV_THREADPOOL_SIZE)': Number(process.env.UV_THREADPOOL_SIZE ?? 4),
    },
    postgres: {},
    datasets: {},
    comparisons: [],
    noise: [],
    notes: [],
  };
}

async function shopRuns(ctx: Context, errors: string[]): Promise<void> {
  const { options } = ctx;
  const shopIds = ['B1', 'B2', 'B3', 'B4', 'B5'];
  const main =
    shopIds.some((id) => wants(options, id)) || wantsPeer(options) || wantsFloor(options);
  const scaling =
    options.scales.length > 0 && (options.only === null || options.only.has('SCALING'));
  if (!main && !scaling) return;
  const sizes = [...new Set([options.products, ...(scaling ? options.scales : [])])].sort(
    (a, b) => a - b,
  );
  const datasets = new Map<number, string>();
  for (const products of sizes) {
    // From BULK_FROM products (the million) the products and reviews are loaded in bulk SQL.
    const bulk = products >= BULK_FROM;
    const { database, summary } = bulk
      ? await ensureBulkShopDataset(ctx, products)
      : await ensureShopDataset(ctx, products);
    datasets.set(products, database);
    ctx.report.datasets[`shop ${products} products`] = {
      ...summary,
      reviewsPerProduct: REVIEWS_PER_PRODUCT,
      loadedBy: bulk
        ? BULK_LOADED_BY
        : "catalogue through the shop's catalogue:import command; customers and reviews with multi-row INSERTs from arrays (reviews have no import path); one argon2id hash shared by all customers",
    };
  }

  const scalingRows: ScalingRow[] = [];
  const routeBenches = async (
    database: string,
    facts: Awaited<ReturnType<typeof catalogueFacts>>,
  ) => {
    const variants = options.variants;
    return [
      listBench(),
      searchBench(Math.min(8, variants)),
      detailBench(facts, variants),
      reviewsBench(facts, variants),
      orderBench(facts, variants),
    ] satisfies RouteBench[];
  };

  for (const products of sizes) {
    const isMain = products === options.products;
    if (!isMain && !scaling) continue;
    if (isMain && !main && !scaling) continue;
    const database = await cloneDataset(ctx, datasets.get(products)!, `bench_shop_${products}`);
    const databaseUrl = ctx.pg.url(database);
    log(`shop on ${products} products (${database})`);
    const shop = await startShop(databaseUrl);
    try {
      if (products >= BULK_FROM) {
        await guard(errors, `totals (${products} products, bulk-loaded)`, () =>
          checkShopTotals(ctx, shop.url, shopHeaders(), database),
        );
      }
      const facts = await catalogueFacts(ctx, database);
      if (isMain && wants(options, 'B1')) {
        log('B1 plugin stack');
        await guard(errors, 'B1', async () =>
          ctx.report.comparisons.push(await pluginStackBench(ctx, shop)),
        );
      }
      for (const bench of await routeBenches(database, facts)) {
        const inMain = isMain && wants(options, bench.id);
        const inScaling = scaling;
        if (!inMain && !inScaling) continue;
        await guard(errors, `${bench.id} (${products} products)`, async () => {
          log(`${bench.id} ${bench.label} (${products} products)`);
          const measured = await measureRoute(ctx, shop, databaseUrl, database, bench, {
            connections: inMain && !options.smoke ? DB_CONNECTIONS : [DB_CONNECTIONS[0]!],
            // At a million products a request can take seconds: the whole duration, so that
            // enough of them complete within a run.
            seconds:
              inMain || products >= BULK_FROM
                ? options.durationSeconds
                : Math.max(1, options.durationSeconds / 2),
            rounds: options.rounds,
          });
          if (inMain) {
            measured.comparison.notes.push(
              `Slowest statement's plan (EXPLAIN ANALYZE, BUFFERS):\n\n\`\`\`\n${measured.explain.slowestPlan}\n\`\`\``,
            );
            ctx.report.comparisons.push(measured.comparison);
          }
          const c = measured.comparison;
          const headline = c.latency![0]!;
          scalingRows.push({
            products,
            id: bench.id,
            label: bench.label,
            rps: c.a.figure,
            tps: c.b.figure,
            ratio: c.ratio,
            p50: headline.p50,
            p99: headline.p99,
            sqlMs: measured.explain.executionMs,
            statements: measured.explain.statements,
          });
        });
        if (bench.id === 'B4' && inMain) {
          await guard(errors, 'B4 hot product', async () => {
            log('B4 hot product: 64 clients, one product');
            ctx.report.hotProduct = await hotProductRun(ctx, shop, database, facts);
          });
        }
      }
      // F-list, F-search, F-detail, F-reviews: the shop ÷ its catalogue floor, side by side.
      if (isMain && wantsFloor(options)) {
        await guard(errors, 'F (floor)', () =>
          floorRuns(ctx, shop, databaseUrl, facts, (name, fn) => guard(errors, name, fn)),
        );
      }
      // P-list, P-price, P-search: the shop ÷ Platformatic DB on the same database.
      if (isMain && wantsPeer(options)) {
        await guard(errors, 'P (peer)', () =>
          peerRuns(ctx, shop, { url: databaseUrl, name: database }, (name, fn) =>
            guard(errors, name, fn),
          ),
        );
      }
      if (isMain && wants(options, 'B5')) {
        log('B5 login');
        await guard(errors, 'B5', async () => {
          const { comparison, health } = await loginBench(ctx, shop, database);
          ctx.report.comparisons.push(comparison);
          ctx.report.health = health;
        });
      }
    } finally {
      await shop.stop();
    }
  }
  if (scaling) ctx.report.scaling = scalingRows;
}

/**
 * S1M: the two-term search with a price range on the main catalogue and on the million (cached
 * bulk template, cloned), cold and repeated, each size on its own shop.
 */
async function searchScaleRuns(ctx: Context, errors: string[]): Promise<void> {
  if (!wants(ctx.options, 'S1M')) return;
  await guard(errors, 'S1M', async () => {
    const runs: SearchScaleRun[] = [];
    for (const products of [ctx.options.products, S1M_PRODUCTS]) {
      const bulk = products >= BULK_FROM;
      const { database: template } = bulk
        ? await ensureBulkShopDataset(ctx, products)
        : await ensureShopDataset(ctx, products);
      const database = await cloneDataset(ctx, template, `bench_shop_s1m_${products}`);
      const shop = await startShop(ctx.pg.url(database));
      try {
        log(`S1M search, cold and repeated (${products} products)`);
        runs.push(await searchScaleRun(ctx, shop, products));
      } finally {
        await shop.stop();
        await ctx.pg.dropDatabase(database);
      }
    }
    ctx.report.comparisons.push(searchScaleComparison(runs[0]!, runs[1]!));
  });
}

/**
 * A1–A3: the back office's order list at 10,000 and 1,000,000 orders; stock beside orders; the
 * admin app's order list painted.
 */
async function backOfficeRuns(ctx: Context, errors: string[]): Promise<void> {
  const which = {
    a1: wants(ctx.options, 'A1'),
    a2: wants(ctx.options, 'A2'),
    a3: wants(ctx.options, 'A3'),
  };
  if (!which.a1 && !which.a2 && !which.a3) return;
  await guard(errors, 'A1–A3', async () => {
    ctx.report.backOffice = await backOfficeBench(ctx, which);
  });
}

/**
 * W1 and W-cpu: their own copy of the main catalogue and their own shop (loopback webhook
 * targets allowed). BENCH_W_CPU_PROFILE=dir runs that shop with --cpu-prof into dir and prints
 * the profile cut to W-cpu's drains.
 */
async function webhookRuns(ctx: Context, errors: string[]): Promise<void> {
  const { options } = ctx;
  const w1 = wants(options, 'W1');
  const wCpu = wants(options, 'W-CPU');
  if (!w1 && !wCpu) return;
  const { database: template, summary } = await ensureShopDataset(ctx, options.products);
  ctx.report.datasets[`shop ${options.products} products`] ??= {
    ...summary,
    reviewsPerProduct: REVIEWS_PER_PRODUCT,
    loadedBy:
      "catalogue through the shop's catalogue:import command; customers and reviews with multi-row INSERTs from arrays (reviews have no import path); one argon2id hash shared by all customers",
  };
  const database = await cloneDataset(ctx, template, 'bench_shop_w1');
  const databaseUrl = ctx.pg.url(database);
  const profileDir = process.env.BENCH_W_CPU_PROFILE
    ? path.resolve(process.env.BENCH_W_CPU_PROFILE)
    : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const shop = await startShop(databaseUrl, {
    env: W1_SHOP_ENV,
    nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  try {
    const facts = await catalogueFacts(ctx, database);
    const variants = orderBench(facts, options.variants).variants;
    if (w1) {
      log(
        'W1 webhooks: orders with one subscribed receiver ÷ with none; delivery latency; catch-up',
      );
      await guard(errors, 'W1', async () => {
        const { comparison, webhooks } = await webhookBench(ctx, shop, databaseUrl, variants);
        ctx.report.comparisons.push(comparison);
        ctx.report.webhooks = webhooks;
      });
    }
    if (wCpu) {
      log('W-cpu: shop CPU per delivered event while a backlog drains, no orders running');
      await guard(errors, 'W-cpu', async () => {
        ctx.report.comparisons.push(
          await drainCpuBench(ctx, shop, databaseUrl, variants, profileDir),
        );
      });
    }
  } finally {
    await shop.stop();
  }
  if (profileDir && wCpu) for (const line of summarizeDrainProfile(profileDir)) log(line);
}

async function handlerRuns(ctx: Context, errors: string[]): Promise<void> {
  const { options } = ctx;
  if (!wants(options, 'B6') && !wants(options, 'B7')) return;
  const standIn = await startMongoStandIn();
  let service: RunningService | undefined;
  try {
    const uri = `${standIn.uri}/bench_handlers`;
    const loaded = await loadHandlerDataset(uri, options.handlers);
    log(
      `loaded ${loaded.handlers} handlers in ${loaded.seconds.toFixed(1)} s (Mongoose model insertMany)`,
    );
    ctx.report.datasets.handlers = {
      ...loaded,
      seed: HANDLER_SEED,
      loadedBy:
        "the handler directory's Mongoose model (insertMany: schema validation and the name-sort hook per handler)",
      database: 'MongoDB wire-protocol stand-in (@dogshop/mongo-wire-server), in its own process',
    };
    service = await startHandlerDirectory(uri);
    if (wants(options, 'B6')) {
      log('B6 public list');
      await guard(errors, 'B6', async () =>
        ctx.report.comparisons.push(await publicListBench(ctx, service!, uri, standIn.process.pid)),
      );
    }
    if (wants(options, 'B7')) {
      ctx.report.exports = [];
      let present = loaded.handlers;
      for (const size of options.exportSizes) {
        if (size > present) {
          // The generator is sequential: the first N of a larger set are the N-handler set.
          const db = await openDirectoryDb(uri);
          try {
            const more = generateHandlers(size).slice(present);
            for (let i = 0; i < more.length; i += 1_000)
              await db.handlers.insertMany(more.slice(i, i + 1_000));
            present = await db.handlers.countDocuments({});
          } finally {
            await db.close();
          }
        }
        if (size !== present) {
          errors.push(
            `B7: the directory holds ${present} handlers, not ${size}; export sizes must grow`,
          );
          continue;
        }
        log(`B7 CSV export of ${size} handlers`);
        await guard(errors, `B7 ${size}`, async () =>
          ctx.report.exports!.push(
            await exportBench(ctx, service!, uri, standIn.process.pid, size),
          ),
        );
      }
      const runs = ctx.report.exports;
      if (runs.length > 0) {
        // "Not growing with row count": in the largest export, the second half (more rows
        // written) may not reach a higher peak than the first half, give or take 10 MB of
        // collector timing; and the largest export stays under the same 100 MB as the smallest.
        const largest = runs[runs.length - 1]!;
        const flat =
          largest.secondHalfRssGrowthMb.median <= largest.firstHalfRssGrowthMb.median + 10 &&
          runs.every((r) => r.peakRssGrowthMb.max < 100);
        ctx.report.exportTarget = {
          rowsPerSecond: 100_000,
          rssGrowthMb: 100,
          flat,
          pass: flat && runs.every((r) => r.pass),
        };
        ctx.report.comparisons.push(exportComparison(largest));
      }
    }
  } finally {
    await service?.stop();
    await standIn.process.stop();
  }
}

/** PAGES: the directory's pages in Chromium, on a stand-in of their own with the handler set. */
async function pageRuns(ctx: Context, errors: string[]): Promise<void> {
  const { options } = ctx;
  if (!wants(options, 'PAGES')) return;
  const standIn = await startMongoStandIn();
  let service: RunningService | undefined;
  try {
    const uri = `${standIn.uri}/bench_pages`;
    const loaded = await loadHandlerDataset(uri, options.handlers);
    log(`PAGES: ${loaded.handlers} handlers loaded in ${loaded.seconds.toFixed(1)} s`);
    service = await startHandlerDirectory(uri);
    log('PAGES finder size, finder on Slow 3G, admin list search');
    await guard(errors, 'PAGES', async () => {
      ctx.report.pages = await pagesBench(ctx, service!, loaded.handlers);
    });
  } finally {
    await service?.stop();
    await standIn.process.stop();
  }
}

/** L: the test suites' load-sized runs at full size, one after another (never two at once). */
async function loadTestRuns(ctx: Context, errors: string[]): Promise<void> {
  // Not in the smoke run: each is a whole Jest file at full size (minutes).
  if (ctx.options.smoke && ctx.options.only === null) return;
  for (const test of LOAD_TESTS) {
    if (!wantsLoadTest(ctx.options.only, test)) continue;
    await guard(errors, `${test.id} ${test.dir}`, async () => {
      const run = await runLoadTest(ctx, test);
      (ctx.report.loadTests ??= []).push(run);
      if (!run.pass) throw new Error(`${test.what}: ${run.tests}`);
    });
  }
}

async function guard(errors: string[], name: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    const message = `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    console.error(message);
    errors.push(message);
  }
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ md: string; json: string; errors: string[] }> {
  const options = parseOptions(argv, env);
  const report = newReport(options, argv);
  const pgbench = await pgbenchVersion();
  if (pgbench) {
    report.versions.pgbench = pgbench.replace(/^pgbench \(PostgreSQL\) /, '');
  } else if (options.smoke) {
    options.only = new Set([...(options.only ?? [])].filter((id) => !/^(B[234]|SCALING)/.test(id)));
    report.notes.push(
      'pgbench is not installed: the comparisons with the database floor (B2–B4) were skipped.',
    );
  } else {
    throw new Error('pgbench is not installed (Debian: apt-get install -y postgresql-client-15)');
  }
  const errors: string[] = [];
  let pg: BenchPostgres | undefined;
  try {
    pg = await startPostgres({
      dir: path.join(options.dataDir, 'postgres'),
      port: await freePort(),
    });
    const settings = await pg.settings();
    report.versions.PostgreSQL = settings.server_version ?? 'unknown';
    report.postgres = settings;
    const ctx: Context = { options, pg, log, report };
    await shopRuns(ctx, errors);
    await searchScaleRuns(ctx, errors);
    await backOfficeRuns(ctx, errors);
    await webhookRuns(ctx, errors);
    await handlerRuns(ctx, errors);
    await pageRuns(ctx, errors);
    await loadTestRuns(ctx, errors);
  } finally {
    await pg?.stop();
  }
  report.finishedAt = new Date().toISOString();
  report.machine.loadAverageAfter = os.loadavg();
  report.noise.push(
    `Load average (1/5/15 min) before the run ${report.machine.loadAverageBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${report.machine.loadAverageAfter.map((l) => l.toFixed(2)).join(' / ')} on ${report.machine.cpus} cores; the load generator, the service, the database and anything else on the machine share these cores.`,
  );
  for (const error of errors) report.notes.push(`ERROR ${error.split('\n')[0]}`);
  const files = await writeReport(
    report,
    options.outDir,
    env.BENCH_LABEL || (options.smoke ? 'smoke' : undefined),
  );
  return { ...files, errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), process.env).then(
    ({ md, json, errors }) => {
      console.log(`\nwrote ${md}\nwrote ${json}`);
      process.exit(errors.length > 0 ? 1 : 0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
