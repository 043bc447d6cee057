// The database floor: pgbench running the SQL a service request issues (see query-capture.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PgbenchScript } from './query-capture.js';
import { runToCompletion } from '@dogshop/child-processes';

export interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  seconds: number;
  /** pgbench's query mode: `prepared` when the service prepared every statement, else `extended`. */
  protocol: 'prepared' | 'extended';
}

export async function pgbenchVersion(): Promise<string | undefined> {
  try {
    return (
      await runToCompletion({
        command: 'pgbench',
        args: ['--version'],
        cwd: os.tmpdir(),
        env: process.env,
      })
    ).trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs the scripts (each picked with equal weight per transaction) over `clients` connections for
 * `seconds`, the way the service sent them: prepared statements (-M prepared: parsed once per
 * connection, then planned as PostgreSQL's plan cache decides) when it named every one, else
 * extended-query mode (unnamed statements with bound parameters, parsed and planned per call).
 * Per-transaction latencies come from pgbench's transaction log.
 */
export async function runPgbench(opts: {
  databaseUrl: string;
  scripts: PgbenchScript[];
  clients: number;
  threads?: number;
  seconds: number;
}): Promise<PgbenchResult> {
  const url = new URL(opts.databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pgbench-'));
  try {
    const protocol = opts.scripts.every((s) => s.prepared) ? 'prepared' : 'extended';
    const args = [
      '--no-vacuum',
      `--protocol=${protocol}`,
      `--client=${opts.clients}`,
      // pgbench's default of one thread: one client process driving `clients` connections, as
      // the service's one event loop drives its pool.
      `--jobs=${Math.min(opts.threads ?? 1, opts.clients)}`,
      `--time=${Math.max(1, Math.round(opts.seconds))}`,
      '--log',
      `--log-prefix=${path.join(dir, 'tx')}`,
      `--host=${url.hostname}`,
      `--port=${url.port}`,
      `--username=${decodeURIComponent(url.username)}`,
    ];
    opts.scripts.forEach((script, i) => {
      const file = path.join(dir, `script-${i}.sql`);
      writeFileSync(file, script.text);
      args.push(`--file=${file}@1`);
      for (const [name, value] of Object.entries(script.variables)) {
        args.push(`--define=${name}=${value}`);
      }
    });
    args.push(decodeURIComponent(url.pathname.slice(1)));
    const output = await runToCompletion({
      command: 'pgbench',
      args,
      cwd: dir,
      env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
      timeoutMs: (opts.seconds + 60) * 1000,
    });
    const number = (pattern: RegExp) => Number(output.match(pattern)?.[1] ?? NaN);
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith('tx'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        // client_id transaction_no time(us) script_no time_epoch time_us
        const time = Number(line.split(' ')[2]);
        if (Number.isFinite(time) && line) latencies.push(time / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    const tps = number(/tps = ([\d.]+) \(without initial connection time\)/);
    if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${output}`);
    return {
      tps,
      transactions: number(/number of transactions actually processed: (\d+)/),
      failed: number(/number of failed transactions: (\d+)/) || 0,
      latency: {
        p50: at(0.5),
        p90: at(0.9),
        p99: at(0.99),
        max: latencies[latencies.length - 1] ?? NaN,
      },
      seconds: opts.seconds,
      protocol,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
