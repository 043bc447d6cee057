// F-list, F-search, F-detail, F-reviews: the shop ÷ its catalogue floor (bare Fastify and `pg`
// running the shop's own read functions, src/servers/catalogue-floor.mjs), side by side in one
// run: both processes on the same database, interleaved rounds (shop, floor; floor, shop …), the
// first dropped. Before the load every request variant goes to both and the bodies must be the
// same bytes, so the ratio compares equal work.
import os from 'node:os';
import type { Context, Options } from '../context.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import { failedRuns, runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import { startCatalogueFloor, type RunningService } from '../infra/services.js';
import { meets, type Comparison } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';
import {
  detailBench,
  listBench,
  reviewsBench,
  searchBench,
  type ShopCatalogueFacts,
} from './shop-benchmarks.js';
import { DB_CONNECTIONS, loadSequence, type RouteBench } from './shop-routes.js';
import { shopHeaders } from './shop-sql.js';

export const FLOOR_IDS = ['F-list', 'F-search', 'F-detail', 'F-reviews'] as const;
export type FloorId = (typeof FLOOR_IDS)[number];

/** `--only F` runs all four, `--only F-detail` one (the option is upper-cased). */
export const wantsFloor = (options: Pick<Options, 'only'>, id?: FloorId): boolean =>
  options.only === null ||
  options.only.has('F') ||
  (id === undefined
    ? FLOOR_IDS.some((f) => options.only!.has(f.toUpperCase()))
    : options.only.has(id.toUpperCase()));

/** The shop ÷ floor target (issue 31). */
const TARGET = { op: '>=' as const, value: 0.9 };

/** Each F figure sends its B2/B3 twin's request variants. */
export function floorFigures(
  facts: ShopCatalogueFacts,
  variants: number,
): Array<{ id: FloorId; route: RouteBench }> {
  return [
    { id: 'F-list', route: listBench() },
    { id: 'F-search', route: searchBench(Math.min(8, variants)) },
    { id: 'F-detail', route: detailBench(facts, variants) },
    { id: 'F-reviews', route: reviewsBench(facts, variants) },
  ];
}

/** Every variant's body must be the same bytes from both (status 200 both). */
async function checkSameBodies(
  shop: RunningService,
  floor: RunningService,
  variants: HttpRequestSpec[],
): Promise<string> {
  let bytes = 0;
  for (const v of variants) {
    const [a, b] = await Promise.all(
      [shop, floor].map(async (server) => {
        const res = await fetch(server.url + v.path, { headers: shopHeaders() });
        return { status: res.status, body: await res.text() };
      }),
    );
    if (a!.status !== 200 || b!.status !== 200 || a!.body !== b!.body) {
      throw new Error(
        `${v.path}: the shop answered ${a!.status} (${a!.body.length} bytes), the floor ${b!.status} (${b!.body.length} bytes); the bodies ${a!.body === b!.body ? 'are' : 'are not'} the same`,
      );
    }
    bytes += Buffer.byteLength(a!.body);
  }
  return `Same bodies checked before the load: each of the ${variants.length} variant(s) answered 200 with the same bytes by both (${Math.round(bytes / variants.length)} bytes on average).`;
}

async function measureFigure(
  ctx: Context,
  shop: RunningService,
  floor: RunningService,
  id: FloorId,
  route: RouteBench,
): Promise<Comparison> {
  const connections = DB_CONNECTIONS[0]!;
  const same = await checkSameBodies(shop, floor, route.variants);
  const requests = loadSequence(route.variants, 7).map((r) => ({ ...r, headers: shopHeaders() }));
  const postmaster = ctx.pg.postmasterPid();
  const load = (server: RunningService) => () =>
    withCpu({ service: server.process.pid, postmaster }, () =>
      runLoad({ url: server.url, requests, connections, duration: ctx.options.durationSeconds }),
    );
  const loadBefore = os.loadavg()[0]!;
  const runs = await interleave(
    ctx.options.rounds,
    { shop: load(shop), floor: load(floor) },
    ctx.log,
  );
  const loadAfter = os.loadavg()[0]!;
  const failures = failedRuns(runs);
  const ratio = ratioFigure(
    runs.shop.map((r) => r.rps),
    runs.floor.map((r) => r.rps),
  );
  return {
    id,
    title: `${route.label}: the shop ÷ its catalogue floor (bare Fastify + pg, the shop's read functions)`,
    a: {
      label: `shop ${route.label}, ${connections} connections`,
      unit: 'req/s',
      figure: figure(runs.shop.map((r) => r.rps)),
    },
    b: {
      label: `catalogue floor ${route.label}, ${connections} connections`,
      unit: 'req/s',
      figure: figure(runs.floor.map((r) => r.rps)),
    },
    ratio,
    target: TARGET,
    pass: meets(ratio.median, TARGET) && failures.length === 0,
    latency: (['shop', 'floor'] as const).map((side) => ({
      label: `${side} ${route.label}`,
      connections,
      rps: figure(runs[side].map((r) => r.rps)),
      p50: figure(runs[side].map((r) => r.latency.p50)),
      p99: figure(runs[side].map((r) => r.latency.p99)),
    })),
    cpu: [
      cpuRow(`shop, ${connections} connections`, runs.shop, (r: LoadResult) => r.rps),
      cpuRow(`floor, ${connections} connections`, runs.floor, (r: LoadResult) => r.rps),
    ],
    notes: [
      `${route.variants.length} request variant(s), the same random sequence on both sides (B${id === 'F-list' || id === 'F-search' ? '2' : '3'}'s variants), with the shop's API key; both in their own process on loopback with pools of ${ctx.report.pools['shop DATABASE_POOL_MAX (pg pool under Prisma)'] ?? 10} connections, on the same cloned database.`,
      same,
      'The floor has none of the plugin stack (metrics, ETag, request log, rate limit, load shedding, security headers) and checks the API key against the environment in memory; the shop checks it against its table (cached for 5 s).',
      `Load average (1 min) ${loadBefore.toFixed(2)} before the rounds, ${loadAfter.toFixed(2)} after, on ${os.cpus().length} cores.`,
      ...failures.map((f) => `non-2xx or failed: ${f}`),
    ],
  };
}

/**
 * Starts the floor beside the running shop (same database) and measures the F figures the
 * options ask for; each figure's failure goes through `guard` and does not stop the others.
 */
export async function floorRuns(
  ctx: Context,
  shop: RunningService,
  databaseUrl: string,
  facts: ShopCatalogueFacts,
  guard: (name: string, fn: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const floor = await startCatalogueFloor(databaseUrl);
  try {
    for (const { id, route } of floorFigures(facts, ctx.options.variants)) {
      if (!wantsFloor(ctx.options, id)) continue;
      ctx.log(`${id} ${route.label}: shop ÷ floor`);
      await guard(id, async () =>
        ctx.report.comparisons.push(await measureFigure(ctx, shop, floor, id, route)),
      );
    }
  } finally {
    await floor.stop();
  }
}
