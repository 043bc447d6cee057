// B6 (public list ÷ the native driver on the same MongoDB) and B7 (CSV export speed and memory).
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Context } from '../context.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import { runLoad, type LoadResult } from '../infra/load.js';
import { cleanEnv, runToCompletion, sleep } from '@dogshop/child-processes';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  MONGO_POOL_MAX,
  type RunningService,
} from '../infra/services.js';
import { meets, type Comparison, type ExportRun } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';

export async function publicListBench(
  ctx: Context,
  service: RunningService,
  mongoUri: string,
  standInPid: number,
): Promise<Comparison> {
  const seconds = ctx.options.durationSeconds;
  const targets = { service: service.process.pid, database: standInPid };
  const script = path.join(import.meta.dirname, '..', 'servers', 'mongo-native.mjs');
  const native = () =>
    withCpu(targets, async () => {
      const output = await runToCompletion({
        command: process.execPath,
        args: [script],
        cwd: path.dirname(script),
        env: cleanEnv({
          MONGODB_URI: mongoUri,
          SECONDS: String(seconds),
          CONCURRENCY: String(MONGO_POOL_MAX),
          POOL_SIZE: String(MONGO_POOL_MAX),
        }),
        timeoutMs: (seconds + 120) * 1000,
      });
      return JSON.parse(output.trim().split('\n').pop()!) as { rate: number; documents: number };
    });
  const service$ = () =>
    withCpu(targets, () =>
      runLoad({
        url: service.url,
        requests: [{ path: '/api/public/users' }],
        connections: MONGO_POOL_MAX,
        duration: seconds,
      }),
    );
  const runs = await interleave(ctx.options.rounds, { service: service$, native }, ctx.log);
  const services = runs.service;
  const natives = runs.native;
  const ratio = ratioFigure(
    services.map((r) => r.rps),
    natives.map((r) => r.rate),
  );
  const target = { op: '>=' as const, value: 0.8 };
  const failures = services.filter((r) => r.non2xx + r.errors + r.timeouts > 0);
  return {
    id: 'B6',
    title: 'Public handler list ÷ the native MongoDB driver doing the same query (same server)',
    a: {
      label: `GET /api/public/users (${natives[0]?.documents ?? '?'} available handlers per response), ${MONGO_POOL_MAX} connections`,
      unit: 'req/s',
      figure: figure(services.map((r) => r.rps)),
    },
    b: {
      label: `mongodb driver find({available:true}).sort({nameSort:1,_id:1}).toArray(), ${MONGO_POOL_MAX} in flight`,
      unit: 'queries/s',
      figure: figure(natives.map((r) => r.rate)),
    },
    ratio,
    target,
    pass: meets(ratio.median, target) && failures.length === 0,
    latency: [
      {
        label: 'GET /api/public/users',
        connections: MONGO_POOL_MAX,
        rps: figure(services.map((r) => r.rps)),
        p50: figure(services.map((r) => r.latency.p50)),
        p99: figure(services.map((r) => r.latency.p99)),
      },
    ],
    cpu: [
      cpuRow('service', services, (r: LoadResult) => r.rps),
      cpuRow(
        'native driver script (counted as load generator)',
        natives,
        (r: { rate: number }) => r.rate,
      ),
    ],
    notes: [
      'The MongoDB here is the wire-protocol stand-in (@dogshop/mongo-wire-server, in its own process): no mongod exists on this machine. Both sides query the same stand-in, so the ratio compares the service with the driver; the absolute numbers say nothing about a real MongoDB.',
      ...failures.map((f) => `non-2xx: ${JSON.stringify(f.statusCodes)}`),
    ],
  };
}

export async function adminToken(service: RunningService): Promise<string> {
  const res = await fetch(`${service.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

const rssKb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? NaN);
};

/** One CSV export: rows, seconds, time to first byte, and the service's RSS growth at its peak. */
async function exportOnce(service: RunningService, token: string) {
  const pid = service.process.pid;
  // Resets the kernel's peak-RSS mark (VmHWM) to the current RSS.
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux or not permitted: the sampled peak still counts
  }
  await sleep(200);
  const baseline = rssKb(pid, 'VmRSS');
  const samples: Array<{ at: number; kb: number }> = [];
  const sampler = setInterval(() => {
    samples.push({ at: performance.now(), kb: rssKb(pid, 'VmRSS') });
  }, 5);
  const started = performance.now();
  let firstByte = 0;
  let newlines = 0;
  let bytes = 0;
  let lastByte = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const url = new URL(`${service.url}/api/users/export?format=csv`);
      const req = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          if (firstByte === 0) firstByte = performance.now();
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines += 1;
          lastByte = chunk[chunk.length - 1]!;
        });
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  } finally {
    clearInterval(sampler);
  }
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  const peak = Math.max(baseline, ...samples.map((x) => x.kb), rssKb(pid, 'VmHWM'));
  // Memory that grew with the rows written would make the second half's peak the higher one.
  const half = started + (ended - started) / 2;
  const peakOf = (list: typeof samples) => Math.max(baseline, ...list.map((x) => x.kb));
  const firstHalfPeak = peakOf(samples.filter((x) => x.at < half));
  const secondHalfPeak = peakOf(samples.filter((x) => x.at >= half));
  // Header plus one line per handler; the last line may or may not end in a line break.
  const lines = newlines + (lastByte === 10 ? 0 : 1);
  return {
    rows: lines - 1,
    bytes,
    seconds,
    firstByteSeconds: (firstByte - started) / 1000,
    baselineRssMb: baseline / 1024,
    peakGrowthMb: (peak - baseline) / 1024,
    firstHalfGrowthMb: (firstHalfPeak - baseline) / 1024,
    secondHalfGrowthMb: (secondHalfPeak - baseline) / 1024,
  };
}

export async function exportBench(
  ctx: Context,
  service: RunningService,
  mongoUri: string,
  standInPid: number,
  handlers: number,
): Promise<ExportRun> {
  const token = await adminToken(service);
  const targets = { service: service.process.pid, database: standInPid };
  const script = path.join(import.meta.dirname, '..', 'servers', 'mongo-native.mjs');
  const exportRun = () => withCpu(targets, () => exportOnce(service, token));
  const floorRun = () =>
    withCpu(targets, async () => {
      const output = await runToCompletion({
        command: process.execPath,
        args: [script],
        cwd: path.dirname(script),
        env: cleanEnv({ MONGODB_URI: mongoUri, MODE: 'cursor', BATCH_SIZE: '500' }),
        timeoutMs: 600_000,
      });
      return JSON.parse(output.trim().split('\n').pop()!) as { rate: number; rows: number };
    });
  const runs = await interleave(
    ctx.options.rounds,
    { export: exportRun, floor: floorRun },
    (line) => ctx.log(line.replace('round', `export ${handlers}: round`)),
  );
  for (const run of runs.export) {
    if (run.rows !== handlers)
      throw new Error(`export gave ${run.rows} rows, expected ${handlers}`);
  }
  const rowsPerSecond = figure(runs.export.map((r) => r.rows / r.seconds));
  const ratio = ratioFigure(
    runs.export.map((r) => r.rows / r.seconds),
    runs.floor.map((r) => r.rate),
  );
  const peakRssGrowthMb = figure(runs.export.map((r) => r.peakGrowthMb));
  const perRow = (cores: number, r: { seconds: number; rows: number }) =>
    (cores * r.seconds * 1e6) / r.rows;
  return {
    handlers,
    rows: runs.export[0]!.rows,
    rowsPerSecond,
    floorRowsPerSecond: figure(runs.floor.map((r) => r.rate)),
    ratio,
    serviceCpuUsPerRow: figure(runs.export.map((r) => perRow(r.cpu.service, r))),
    databaseCpuUsPerRow: figure(runs.export.map((r) => perRow(r.cpu.database, r))),
    seconds: figure(runs.export.map((r) => r.seconds)),
    firstByteSeconds: figure(runs.export.map((r) => r.firstByteSeconds)),
    peakRssGrowthMb,
    firstHalfRssGrowthMb: figure(runs.export.map((r) => r.firstHalfGrowthMb)),
    secondHalfRssGrowthMb: figure(runs.export.map((r) => r.secondHalfGrowthMb)),
    baselineRssMb: runs.export[0]!.baselineRssMb,
    pass: ratio.median >= 0.9 && rowsPerSecond.median >= 100_000 && peakRssGrowthMb.max < 100,
  };
}

/**
 * B7 among the comparisons (issue 31): the largest export's rows/s ÷ the native driver reading
 * the same cursor, ≥ 0.9. The rows/s floor and the memory bounds stay in `exportTarget`.
 */
export function exportComparison(run: ExportRun): Comparison {
  const target = { op: '>=' as const, value: 0.9 };
  return {
    id: 'B7',
    title: `CSV export of ${run.handlers.toLocaleString('en')} handlers ÷ the native driver reading the same cursor`,
    a: { label: "the directory's CSV export", unit: 'rows/s', figure: run.rowsPerSecond },
    b: {
      label: 'the native driver, the same cursor',
      unit: 'rows/s',
      figure: run.floorRowsPerSecond,
    },
    ratio: run.ratio,
    target,
    pass: meets(run.ratio.median, target),
    notes: ['The export sizes, their memory and the rows/s floor: "B7 — CSV export" below.'],
  };
}
