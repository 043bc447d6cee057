// A soak run: both services as real processes under steady mixed traffic, with database faults
// injected on schedule (PostgreSQL stopped and started, the MongoDB stand-in stopped and started
// on the same port) and a SIGTERM to each service at the end, while traffic still runs. Then
// the invariants a shop's database must keep are checked against the databases themselves.
// The pieces: platform.ts (processes and databases), traffic.ts (the load), faults.ts and
// shutdowns.ts (what is done to the services), invariants.ts and database-invariants.ts (the
// checks), report.ts (the result).
import { createDb, type Db } from '@dogshop/shop/db/client';
import { directoryHandlers, directoryInvariants, shopInvariants } from './database-invariants.js';
import { allowance, explained, faultReport, startReadyMonitor } from './faults.js';
import { call } from './http-call.js';
import { answerInvariants, faultInvariants, shutdownInvariants } from './invariants.js';
import { DIRECTORY_ADMIN, startPlatform } from './platform.js';
import { countByService, latency, type SoakReport } from './report.js';
import { LOW_STOCK } from './shop-traffic.js';
import { shutDownDirectory, shutDownShop } from './shutdowns.js';
import { sleep } from './sleep.js';
import { EXPECTED, startLoad } from './traffic.js';
import { World } from './world.js';

export {
  formatReport,
  type FaultReport,
  type Invariant,
  type ShutdownReport,
  type SoakReport,
} from './report.js';

export interface SoakOptions {
  durationMs: number;
  ratePerSecond: number;
  /** Each fault stops a database at `atMs` (run clock) and starts it again `downMs` later. */
  faults: Array<{ database: 'postgres' | 'mongo'; atMs: number; downMs: number }>;
  seed?: number;
  maxInFlight?: number;
  log?: (line: string) => void;
}

/**
 * What a failure is read from: the service's error-level lines (a 500 logs its error there, however
 * early in the run) and its last output.
 */
function failureLog(output: string): string {
  const errors = output
    .split('\n')
    .filter((line) => /"level":(?:50|60)/.test(line))
    .join('\n');
  return `error lines:\n${errors.slice(-20_000)}\nlast output:\n${output.slice(-6_000)}`;
}

export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? (() => {});
  log('starting PostgreSQL, the MongoDB stand-in and both services …');
  const platform = await startPlatform();
  const db = createDb(platform.shopDatabaseUrl, 3);
  try {
    const world = new World();
    const initialStock = await prepareCatalogue(db, world);
    const initialHandlers = await directoryHandlers(platform.directoryUri);
    const login = await call(platform.handlerDirectory.url, 'POST', '/api/auth/login', {
      body: DIRECTORY_ADMIN,
    });
    world.adminToken = login.json!.token as string;

    const begin = performance.now();
    const now = () => performance.now() - begin;
    const monitor = startReadyMonitor(platform, now);
    const load = startLoad(
      { shop: platform.shop.url, directory: platform.handlerDirectory.url, world },
      {
        ratePerSecond: opts.ratePerSecond,
        maxInFlight: opts.maxInFlight ?? 200,
        seed: opts.seed ?? 1,
      },
      now,
    );
    log(`traffic: ${opts.ratePerSecond} requests/s for ${(opts.durationMs / 1000).toFixed(0)} s`);

    const faults: Array<{
      database: 'postgres' | 'mongo';
      stoppedAtMs: number;
      startedAtMs: number;
    }> = [];
    for (const fault of [...opts.faults].sort((a, b) => a.atMs - b.atMs)) {
      await sleep(fault.atMs - now());
      const stoppedAtMs = now();
      log(`fault: stopping ${fault.database} at ${(stoppedAtMs / 1000).toFixed(1)} s`);
      await (fault.database === 'postgres' ? platform.stopPostgres() : platform.stopMongo());
      await sleep(fault.atMs + fault.downMs - now());
      await (fault.database === 'postgres' ? platform.startPostgres() : platform.startMongo());
      const startedAtMs = now();
      log(`fault: ${fault.database} running again at ${(startedAtMs / 1000).toFixed(1)} s`);
      faults.push({ database: fault.database, stoppedAtMs, startedAtMs });
    }

    // Both services lived through the faults: recovered by themselves, never restarted.
    const survived = [platform.shop, platform.handlerDirectory].every(
      (service) =>
        service.process.child.exitCode === null && service.process.child.signalCode === null,
    );

    // The end: SIGTERM to each service while traffic still runs.
    await sleep(opts.durationMs - 1_500 - now());
    const shutdowns = [await shutDownShop(platform, db, world, now)];
    log(`SIGTERM: shop exited with ${shutdowns[0]!.exitCode}`);
    shutdowns.push(await shutDownDirectory(platform.handlerDirectory, world, now));
    log(`SIGTERM: handler directory exited with ${shutdowns[1]!.exitCode}`);
    await sleep(opts.durationMs - now());
    await load.stop();
    await monitor.stop();
    const durationMs = now();
    log('traffic stopped; checking the invariants …');

    const faultReports = faults.map((f) => ({
      ...faultReport(f, load.outcomes, monitor.samples),
      sameProcess: survived,
    }));
    const report: SoakReport = {
      durationMs,
      ratePerSecond: opts.ratePerSecond,
      requests: load.outcomes.length,
      skipped: load.skipped,
      byService: countByService(load.outcomes),
      latencyMs: latency(load.outcomes),
      faults: faultReports,
      shutdowns,
      unexpected: [],
      invariants: [],
      logs: {
        shop: failureLog(platform.shop.process.output()),
        'handler-directory': failureLog(platform.handlerDirectory.process.output()),
        postgres: platform.postgresOutput(),
      },
    };
    const allowed = allowance(faults, monitor.samples, shutdowns);
    report.unexpected = load.outcomes
      .filter(
        (o) =>
          !explained(o, allowed) &&
          (o.status === undefined || !EXPECTED.get(`${o.service} ${o.op}`)!.includes(o.status)),
      )
      .map((o) => ({
        service: o.service,
        op: o.op,
        answer: o.error ?? String(o.status),
        atMs: Math.round(o.startedAt),
      }));
    report.invariants = [
      ...answerInvariants(load.outcomes, allowed),
      ...faultInvariants(faultReports),
      ...shutdownInvariants(shutdowns),
      ...(await shopInvariants(db, world, initialStock)),
      ...(await directoryInvariants(platform.directoryUri, world, initialHandlers)),
    ];
    return report;
  } finally {
    await db.$disconnect().catch(() => undefined);
    await platform.close();
  }
}

/** Plenty of stock, except two products that will run out (409, never below zero). */
async function prepareCatalogue(db: Db, world: World): Promise<Map<number, number>> {
  await db.$executeRawUnsafe('UPDATE products SET stock = 1000000');
  const products = await db.$queryRawUnsafe<Array<{ id: number; name: string; price: string }>>(
    'SELECT id, name, price::text AS price FROM products WHERE active ORDER BY id',
  );
  const low = products.slice(-2).map((p) => p.id);
  await db.$executeRawUnsafe(
    `UPDATE products SET stock = ${LOW_STOCK} WHERE id IN (${low.join(',')})`,
  );
  world.products = products.map((p) => ({ id: p.id, name: p.name, price: Number(p.price) }));
  const stock = await db.$queryRawUnsafe<Array<{ id: number; stock: number }>>(
    'SELECT id, stock FROM products',
  );
  return new Map(stock.map((row) => [row.id, row.stock]));
}
