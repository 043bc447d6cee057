// S1M: B2b's request shape (two terms, a price range, the exact total) at 1,000,000 products and
// at the main catalogue's size, 16 connections: the p50 of searches never sent before (cold) and
// of B2b's eight variants sent over and over (repeated), and how the p50 grows with the products.
import type { Context } from '../context.js';
import { MATERIALS, NOUNS } from '../datasets/shop-dataset.js';
import { Random } from '../datasets/random.js';
import { runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import type { RunningService } from '../infra/services.js';
import { meets, type Comparison, type LatencyRow } from '../results.js';
import { figure, interleave, type Figure } from '../stats.js';
import { searchBench } from './shop-benchmarks.js';
import { shopHeaders } from './shop-sql.js';

export const S1M_PRODUCTS = 1_000_000;
export const S1M_CONNECTIONS = 16;
const TARGET_P50_MS = 100;

/**
 * Requests no earlier one repeats: a material and a noun (the data's words, like B2b's) and a
 * price range in cents drawn per request, from a seed of their own per size and round. 3,000:
 * more than a round at a million sends; autocannon builds every request of the list for each
 * connection, and 20,000 cost more of its CPU than the searches left to the shop.
 */
export function coldSearches(seed: number, count = 3_000): HttpRequestSpec[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () => {
    const min = random.int(1_000, 5_000) / 100;
    const max = min + random.int(10_000, 30_000) / 100;
    const search = `${random.pick(MATERIALS)} ${random.pick(NOUNS)}`;
    return {
      path: `/products?limit=20&search=${encodeURIComponent(search)}&min_price=${min}&max_price=${max}`,
      headers: shopHeaders(),
    };
  });
}

export interface SearchScaleRun {
  products: number;
  cold: LoadResult[];
  repeated: LoadResult[];
}

/** Interleaved rounds of cold and repeated searches on one running shop. */
export async function searchScaleRun(
  ctx: Context,
  shop: RunningService,
  products: number,
): Promise<SearchScaleRun> {
  const repeated = searchBench(8).variants.map((v) => ({ ...v, headers: shopHeaders() }));
  let round = 0;
  const load = (requests: HttpRequestSpec[]) =>
    runLoad({
      url: shop.url,
      requests,
      connections: S1M_CONNECTIONS,
      duration: ctx.options.durationSeconds,
    });
  const runs = await interleave(
    ctx.options.rounds,
    {
      cold: () => load(coldSearches(products + 1_000 * round++)),
      repeated: () => load(repeated),
    },
    ctx.log,
  );
  for (const r of [...runs.cold, ...runs.repeated]) {
    if (r.non2xx + r.errors + r.timeouts > 0)
      throw new Error(`S1M at ${products} products: failures ${JSON.stringify(r.statusCodes)}`);
  }
  return { products, cold: runs.cold, repeated: runs.repeated };
}

/** p50 ∝ products^k between two sizes: k. */
const exponent = (small: number, large: number, p50Small: number, p50Large: number) =>
  Math.log(p50Large / p50Small) / Math.log(large / small);

const p50s = (runs: LoadResult[]) => figure(runs.map((r) => r.latency.p50));

function latencyRow(label: string, runs: LoadResult[]): LatencyRow {
  return {
    label,
    connections: S1M_CONNECTIONS,
    rps: figure(runs.map((r) => r.rps)),
    p50: p50s(runs),
    p99: figure(runs.map((r) => r.latency.p99)),
  };
}

/**
 * The figure: A is the cold p50 at a million, B the repeated one (both ms); the "ratio" column
 * carries the cold p50 in ms against the ≤ 100 ms target, and the exponents are beside it.
 */
export function searchScaleComparison(small: SearchScaleRun, large: SearchScaleRun): Comparison {
  const cold = p50s(large.cold);
  const repeated = p50s(large.repeated);
  const k = (kind: 'cold' | 'repeated'): Figure => {
    const value = exponent(
      small.products,
      large.products,
      p50s(small[kind]).median,
      p50s(large[kind]).median,
    );
    return { median: value, min: value, max: value, values: [value] };
  };
  const target = { op: '<=' as const, value: TARGET_P50_MS };
  const n = (products: number) => products.toLocaleString('en');
  return {
    id: 'S1M',
    title: `Two-term search with a price range and the exact total at ${n(large.products)} products, ${S1M_CONNECTIONS} connections: p50 ms, cold ÷ repeated`,
    a: { label: 'cold: terms and range never sent before', unit: 'ms p50', figure: cold },
    b: { label: "repeated: B2b's 8 variants", unit: 'ms p50', figure: repeated },
    ratio: cold,
    target,
    pass: meets(cold.median, target) && meets(repeated.median, target),
    alsoRatios: [
      { label: 'repeated p50, ms', ratio: repeated },
      {
        label: `exponent of the cold p50, ${n(small.products)} → ${n(large.products)}`,
        ratio: k('cold'),
      },
      {
        label: `exponent of the repeated p50, ${n(small.products)} → ${n(large.products)}`,
        ratio: k('repeated'),
      },
    ],
    latency: [
      latencyRow(`cold, ${n(small.products)} products`, small.cold),
      latencyRow(`repeated, ${n(small.products)} products`, small.repeated),
      latencyRow(`cold, ${n(large.products)} products`, large.cold),
      latencyRow(`repeated, ${n(large.products)} products`, large.repeated),
    ],
    notes: [
      `The "ratio" of S1M is the cold p50 in milliseconds at ${n(large.products)} products (target ≤ ${TARGET_P50_MS} ms, the repeated p50 too); the exponents are k in p50 ∝ products^k.`,
      'Cold: each request a material and a noun of the data and a price range in cents drawn for it, never sent before in the run; repeated: the eight B2b variants in turn.',
    ],
  };
}
