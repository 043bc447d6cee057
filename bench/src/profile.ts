// `pnpm --filter @dogshop/bench profile <shop|floor|directory> <path> [seconds]`: runs a service with
// --cpu-prof under load on one route (GET; for the shop also POST /orders with 3-item bodies) and
// prints where its CPU time went, by package and by function. Profiles stay in bench/results/tmp/.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogueFacts, loginRequests, orderBench } from './benchmarks/shop-benchmarks.js';
import { shopHeaders } from './benchmarks/shop-sql.js';
import type { Context } from './context.js';
import { cloneDataset, ensureShopDataset } from './datasets/cache.js';
import { runLoad, type HttpRequestSpec } from './infra/load.js';
import { startPostgres } from './infra/postgres.js';
import { freePort } from '@dogshop/child-processes';
import { withCpu, type CpuTargets } from './infra/cpu.js';
import {
  startHandlerDirectory,
  startCatalogueFloor,
  startMongoStandIn,
  startShop,
  type RunningService,
} from './infra/services.js';
import { adminToken } from './benchmarks/handler-benchmarks.js';
import { loadHandlerDataset } from './datasets/handler-dataset.js';
import { BENCH_ROOT, parseOptions } from './options.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}

export function summarizeProfile(file: string, top = 25): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    startTime: number;
    endTime: number;
    samples: number[];
  };
  const total = profile.nodes.reduce((sum, n) => sum + n.hitCount, 0);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { url, functionName, lineNumber } = node.callFrame;
    const pkg =
      url.match(/node_modules\/\.pnpm\/([^/]+)\//)?.[1] ??
      (url.includes('/services/') || url.includes('/packages/')
        ? (url.match(/\/(services|packages)\/([^/]+)\//)?.[2] ?? 'workspace')
        : url.startsWith('node:')
          ? 'node core'
          : url === ''
            ? `(${functionName || 'native'})`
            : url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.hitCount);
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\/\.pnpm\//, '')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `samples: ${total}, ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
    '-- self time by package --',
    ...sorted(byPackage).map(([k, v]) => `${pct(v)} ${k}`),
    '-- self time by function --',
    ...sorted(byFunction).map(([k, v]) => `${pct(v)} ${k}`),
  ];
}

async function main(): Promise<void> {
  const [service = 'shop', route = '/products?limit=20', secondsText = '10'] =
    process.argv.slice(2);
  const seconds = Number(secondsText);
  const options = parseOptions([], process.env);
  const profileDir = path.join(BENCH_ROOT, 'results', 'tmp', `profile-${Date.now()}`);
  mkdirSync(profileDir, { recursive: true });
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  if (service === 'shop' || service === 'floor') {
    const pg = await startPostgres({
      dir: path.join(options.dataDir, 'postgres'),
      port: await freePort(),
    });
    try {
      const ctx = { options, pg, log: console.log, report: { datasets: {} } } as unknown as Context;
      const { database: template } = await ensureShopDataset(ctx, options.products);
      const database = await cloneDataset(ctx, template, 'bench_profile');
      const running =
        service === 'floor'
          ? await startCatalogueFloor(pg.url(database), { nodeArgs })
          : await startShop(pg.url(database), { nodeArgs });
      try {
        let requests: HttpRequestSpec[] = [{ path: route }];
        if (route === '/orders')
          requests = orderBench(await catalogueFacts(ctx, database), 50).variants;
        if (route === '/customers/login') requests = loginRequests();
        await load(
          running,
          requests.map((r) => ({ ...r, headers: shopHeaders(r.body) })),
          seconds,
          route,
          16,
          {
            postmaster: pg.postmasterPid(),
          },
        );
      } finally {
        await running.stop();
      }
    } finally {
      await pg.stop();
    }
  } else {
    const standIn = await startMongoStandIn();
    try {
      const uri = `${standIn.uri}/bench_profile`;
      await loadHandlerDataset(uri, options.handlers);
      const directory = await startHandlerDirectory(uri, { nodeArgs });
      try {
        const token = route.includes('export') ? await adminToken(directory) : undefined;
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        await load(
          directory,
          [{ path: route, headers }],
          seconds,
          route,
          route.includes('export') ? 1 : 10,
          {
            database: standIn.process.pid,
          },
        );
      } finally {
        await directory.stop();
      }
    } finally {
      await standIn.process.stop();
    }
  }
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  console.log(`profile: ${path.join(profileDir, file)}`);
  for (const line of summarizeProfile(path.join(profileDir, file))) console.log(line);
}

async function load(
  service: RunningService,
  requests: HttpRequestSpec[],
  seconds: number,
  route: string,
  connections = 16,
  database: CpuTargets = {},
): Promise<void> {
  await runLoad({ url: service.url, requests, connections, duration: Math.min(3, seconds) });
  const result = await withCpu({ service: service.process.pid, ...database }, () =>
    runLoad({ url: service.url, requests, connections, duration: seconds }),
  );
  const perRequest = (cores: number) => ((cores * 1000) / result.rps).toFixed(2);
  console.log(
    `${route}: ${result.rps.toFixed(1)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; ` +
      `CPU per request: service ${perRequest(result.cpu.service)} ms, database ${perRequest(result.cpu.database)} ms, load generator ${perRequest(result.cpu.loadGenerator)} ms; other processes ${result.cpu.other.toFixed(2)} cores`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
