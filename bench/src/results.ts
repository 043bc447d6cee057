// What a run produces: the JSON twin of the Markdown report is exactly this structure.
import type { Figure } from './stats.js';

export interface Side {
  label: string;
  unit: string;
  figure: Figure;
}

export interface Target {
  op: '>=' | '<=';
  value: number;
}

export interface LatencyRow {
  label: string;
  connections: number;
  rps: Figure;
  p50: Figure;
  p99: Figure;
}

/** Average CPU cores each component used during one side's runs (medians), and per request. */
export interface CpuRow {
  side: string;
  rate: number;
  service: number;
  database: number;
  loadGenerator: number;
  other: number;
  machine: number;
}

export interface Comparison {
  id: string;
  title: string;
  a: Side;
  b: Side;
  ratio: Figure;
  target: Target;
  pass: boolean;
  /** Other ratios worth showing beside the headline one (e.g. at 64 connections). */
  alsoRatios?: Array<{ label: string; ratio: Figure }>;
  latency?: LatencyRow[];
  cpu?: CpuRow[];
  notes: string[];
}

export interface HotProductRun {
  productId: number;
  clients: number;
  requests: number;
  initialStock: number;
  successes: number;
  refusedInsufficientStock: number;
  otherResponses: Record<string, number>;
  finalStock: number;
  orderedQuantity: number;
  oversold: boolean;
  exact: boolean;
}

export interface HealthUnderLoad {
  idleP99: Figure;
  loadedP99: Figure;
  idleP50: Figure;
  loadedP50: Figure;
  ratio: Figure;
  target: Target;
  pass: boolean;
}

export interface ExportRun {
  handlers: number;
  rowsPerSecond: Figure;
  /** The native driver reading the same cursor, with no HTTP and no CSV. */
  floorRowsPerSecond: Figure;
  ratio: Figure;
  /** CPU microseconds per row: the service's, and the database's (the stand-in). */
  serviceCpuUsPerRow: Figure;
  databaseCpuUsPerRow: Figure;
  seconds: Figure;
  firstByteSeconds: Figure;
  peakRssGrowthMb: Figure;
  /** Peak RSS growth in the first and in the second half of the export's time. */
  firstHalfRssGrowthMb: Figure;
  secondHalfRssGrowthMb: Figure;
  baselineRssMb: number;
  rows: number;
  pass: boolean;
}

export interface ScalingRow {
  products: number;
  id: string;
  label: string;
  rps: Figure;
  tps: Figure;
  ratio: Figure;
  p50: Figure;
  p99: Figure;
  /** EXPLAIN (ANALYZE) execution time of the request's SQL, ms (sum of its statements). */
  sqlMs: number;
  /** The same per read statement. */
  statements: Array<{ sql: string; ms: number }>;
}

export interface Report {
  date: string;
  startedAt: string;
  finishedAt: string;
  command: string;
  settings: {
    durationSeconds: number;
    rounds: number;
    only: string[] | null;
    scales: number[];
    connections: Record<string, number>;
  };
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    os: string;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
  };
  versions: Record<string, string>;
  pools: Record<string, number>;
  postgres: Record<string, string>;
  datasets: Record<string, unknown>;
  comparisons: Comparison[];
  hotProduct?: HotProductRun;
  health?: HealthUnderLoad;
  exports?: ExportRun[];
  exportTarget?: { rowsPerSecond: number; rssGrowthMb: number; flat: boolean; pass: boolean };
  scaling?: ScalingRow[];
  noise: string[];
  notes: string[];
}

export function meets(value: number, target: Target): boolean {
  return target.op === '>=' ? value >= target.value : value <= target.value;
}
