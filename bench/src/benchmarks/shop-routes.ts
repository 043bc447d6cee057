// B2–B4: a shop route's throughput beside pgbench running the exact SQL that route issues.
import type { Context } from '../context.js';
import { Random } from '../datasets/random.js';
import { runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import { cpuRow, withCpu, type CpuUse } from '../infra/cpu.js';
import { runPgbench, type PgbenchResult } from '../infra/pgbench.js';
import type { CapturedStatement, PgbenchScript, ScriptOptions } from '../infra/query-capture.js';
import { SHOP_POOL_MAX, type RunningService } from '../infra/services.js';
import { meets, type Comparison, type LatencyRow, type Target } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';
import {
  captureRequests,
  explainRequest,
  scriptsOf,
  shopHeaders,
  statementSummary,
  type CapturedRequest,
  type ExplainResult,
} from './shop-sql.js';

/** HTTP connections of the DB-route runs; the first gives the headline ratio. */
export const DB_CONNECTIONS = [16, 64];

export interface RouteBench {
  id: string;
  title: string;
  /** What side A is, e.g. "GET /products?limit=20". */
  label: string;
  /** Request variants (distinct ids, terms or bodies); the load picks among them at random. */
  variants: HttpRequestSpec[];
  target: Target;
  /** Adjusts the replay of one captured request (e.g. the order id an INSERT returned). */
  scriptOptions?: (captured: CapturedRequest) => Omit<ScriptOptions, 'prefix'>;
  /** Further floors from the same capture (e.g. the write statements alone). */
  extraFloors?: Array<{
    label: string;
    select: (statements: CapturedStatement[]) => CapturedStatement[];
  }>;
}

export interface RouteMeasurement {
  comparison: Comparison;
  explain: ExplainResult;
  captured: CapturedRequest[];
}

export function loadSequence(
  variants: HttpRequestSpec[],
  seed: number,
  length = 1_000,
): HttpRequestSpec[] {
  const random = new Random(seed);
  return Array.from({ length }, () => random.pick(variants));
}

export async function measureRoute(
  ctx: Context,
  shop: RunningService,
  databaseUrl: string,
  database: string,
  bench: RouteBench,
  opts: { connections: number[]; seconds: number; rounds: number },
): Promise<RouteMeasurement> {
  ctx.log(
    `  ${bench.id} ${bench.label}: capturing the SQL of ${bench.variants.length} request variants`,
  );
  const captured = await captureRequests(ctx, shop.url, database, bench.variants);
  const scripts = scriptsOf(captured, (c) => bench.scriptOptions?.(c) ?? {});
  const explain = await explainRequest(databaseUrl, captured[0]!.statements);
  const sequence = loadSequence(bench.variants, 7).map((r) => ({
    ...r,
    headers: { ...shopHeaders(r.body), ...r.headers },
  }));

  type Run = (LoadResult | PgbenchResult) & { cpu: CpuUse };
  const targets = { service: shop.process.pid, postmaster: ctx.pg.postmasterPid() };
  const sides: Record<string, () => Promise<Run>> = {};
  for (const connections of opts.connections) {
    sides[`service c=${connections}`] = () =>
      withCpu(targets, () =>
        runLoad({ url: shop.url, requests: sequence, connections, duration: opts.seconds }),
      );
  }
  sides.pgbench = () =>
    withCpu(targets, () =>
      runPgbench({ databaseUrl, scripts, clients: SHOP_POOL_MAX, seconds: opts.seconds }),
    );
  const extraScripts = new Map<string, PgbenchScript[]>();
  for (const extra of bench.extraFloors ?? []) {
    const selected = captured.map((c) => ({ ...c, statements: extra.select(c.statements) }));
    extraScripts.set(
      extra.label,
      scriptsOf(selected, (c) => bench.scriptOptions?.(c) ?? {}),
    );
    sides[extra.label] = () =>
      withCpu(targets, () =>
        runPgbench({
          databaseUrl,
          scripts: extraScripts.get(extra.label)!,
          clients: SHOP_POOL_MAX,
          seconds: opts.seconds,
        }),
      );
  }
  const runs = await interleave(opts.rounds, sides, ctx.log);

  const loads = (name: string) => runs[name] as Array<LoadResult & { cpu: CpuUse }>;
  const floor = runs.pgbench as Array<PgbenchResult & { cpu: CpuUse }>;
  const headline = loads(`service c=${opts.connections[0]}`);
  const failures = Object.entries(runs).flatMap(([name, list]) =>
    list
      .filter((r) => ('non2xx' in r ? r.non2xx + r.errors + r.timeouts > 0 : r.failed > 0))
      .map(
        (r) =>
          `${name}: ${JSON.stringify('statusCodes' in r ? r.statusCodes : { failed: r.failed })}`,
      ),
  );
  const ratio = ratioFigure(
    headline.map((r) => r.rps),
    floor.map((r) => r.tps),
  );
  const latency: LatencyRow[] = opts.connections.map((connections) => {
    const list = loads(`service c=${connections}`);
    return {
      label: bench.label,
      connections,
      rps: figure(list.map((r) => r.rps)),
      p50: figure(list.map((r) => r.latency.p50)),
      p99: figure(list.map((r) => r.latency.p99)),
    };
  });
  latency.push({
    label: `pgbench (${SHOP_POOL_MAX} clients)`,
    connections: SHOP_POOL_MAX,
    rps: figure(floor.map((r) => r.tps)),
    p50: figure(floor.map((r) => r.latency.p50)),
    p99: figure(floor.map((r) => r.latency.p99)),
  });
  const alsoRatios = [
    ...opts.connections.slice(1).map((connections) => ({
      label: `service at ${connections} connections ÷ pgbench`,
      ratio: ratioFigure(
        loads(`service c=${connections}`).map((r) => r.rps),
        floor.map((r) => r.tps),
      ),
    })),
    ...(bench.extraFloors ?? []).map((extra) => ({
      label: `service at ${opts.connections[0]} connections ÷ pgbench of ${extra.label}`,
      ratio: ratioFigure(
        headline.map((r) => r.rps),
        (runs[extra.label] as PgbenchResult[]).map((r) => r.tps),
      ),
    })),
  ];
  const comparison: Comparison = {
    id: bench.id,
    title: bench.title,
    a: {
      label: `${bench.label}, ${opts.connections[0]} connections`,
      unit: 'req/s',
      figure: figure(headline.map((r) => r.rps)),
    },
    b: {
      label: `pgbench of its SQL, ${SHOP_POOL_MAX} clients (= pool)`,
      unit: 'tps',
      figure: figure(floor.map((r) => r.tps)),
    },
    ratio,
    target: bench.target,
    pass: meets(ratio.median, bench.target) && failures.length === 0,
    alsoRatios,
    latency,
    cpu: [
      ...opts.connections.map((c) =>
        cpuRow(`service, ${c} connections`, loads(`service c=${c}`), (r: LoadResult) => r.rps),
      ),
      cpuRow(`pgbench, ${SHOP_POOL_MAX} clients`, floor, (r: PgbenchResult) => r.tps),
      ...(bench.extraFloors ?? []).map((extra) =>
        cpuRow(
          `pgbench of ${extra.label}`,
          runs[extra.label] as Array<PgbenchResult & { cpu: CpuUse }>,
          (r: PgbenchResult) => r.tps,
        ),
      ),
    ],
    notes: [
      `SQL per request (${captured[0]!.statements.length} statements, captured from the PostgreSQL log): ${statementSummary(
        captured[0]!.statements,
      )
        .map((s) => `\`${s}\``)
        .join('; ')}`,
      `pgbench sends them as the service did: ${
        scripts.every((s) => s.prepared)
          ? 'prepared (-M prepared), as the service names each statement once per connection'
          : 'unnamed (-M extended), parsed and planned per call, as the service sends them'
      }`,
      `EXPLAIN ANALYZE of the first variant's reads: ${explain.executionMs.toFixed(2)} ms execution, ${explain.planningMs.toFixed(2)} ms planning`,
      ...failures.map((f) => `non-2xx or failed: ${f}`),
    ],
  };
  return { comparison, explain, captured };
}
