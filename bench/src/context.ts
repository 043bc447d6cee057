import type { BenchPostgres } from './infra/postgres.js';
import type { Report } from './results.js';

export interface Options {
  /** Seconds per measured run (BENCH_DURATION, e.g. "10s"). */
  durationSeconds: number;
  /** Rounds per comparison; the first is a warm-up and dropped (BENCH_ROUNDS). */
  rounds: number;
  /** Benchmarks to run (`--only B2,B3`); null for all. */
  only: Set<string> | null;
  /** Catalogue sizes of the scaling runs, besides the main one (BENCH_SCALES). */
  scales: number[];
  products: number;
  handlers: number;
  exportSizes: number[];
  /** Request variants per route (distinct ids / bodies), at most 100 (pgbench's script limit). */
  variants: number;
  /** Where the report goes (bench/results). */
  outDir: string;
  /** Persistent data (PostgreSQL cluster with cached data sets). */
  dataDir: string;
  /** A tiny run that only proves the harness works (the Jest smoke test). */
  smoke: boolean;
  /** W1's phases besides its interleaved rounds (BENCH_W1_*). */
  webhook: {
    /** How long the receiver refuses connections while orders continue (BENCH_W1_OUTAGE). */
    outageSeconds: number;
    /** Orders per second during the outage (BENCH_W1_OUTAGE_RATE). */
    outageRate: number;
    /** Orders per second of the latency run below the worker's ceiling (BENCH_W1_STEADY_RATE). */
    steadyRate: number;
    /** The longest wait for a round's deliveries to arrive (BENCH_W1_DRAIN). */
    drainSeconds: number;
  };
}

export interface Context {
  options: Options;
  pg: BenchPostgres;
  log: (line: string) => void;
  report: Report;
}

export const wants = (options: Options, id: string) =>
  options.only === null || options.only.has(id) || options.only.has(id.slice(0, 2));
