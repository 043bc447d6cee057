// What a run produces: the JSON twin of the Markdown report is exactly this structure.
import type { BackOfficeRun } from './benchmarks/back-office-benchmarks.js';
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

/** Commit-to-delivery latency of one W1 load: each event's `timestamp` to its arrival. */
export interface WebhookLatency {
  label: string;
  /** Orders placed per second (2xx) during the load. */
  ordersPerSecond: Figure;
  /** Events queued for the subscription per round (median). */
  events: number;
  p50Ms: Figure;
  p99Ms: Figure;
  maxMs: Figure;
  /** From the end of the load to the last delivery. */
  drainSeconds: Figure;
  /** Events ÷ the time from the load's start to the last delivery. */
  deliveriesPerSecond: Figure;
  /**
   * Events not delivered within the drain limit (all kept rounds); their latency counts as the
   * time they had waited when it ran out, so the percentiles are then lower bounds.
   */
  undelivered: number;
}

/** W1's catch-up after a receiver outage. */
export interface WebhookCatchUp {
  outageSeconds: number;
  ordersPerSecond: number;
  /** Deliveries queued for the subscription while the receiver was down. */
  events: number;
  /** Failed attempts (refused connections) during the outage. */
  failedAttempts: number;
  /** When the receiver was back: deliveries never attempted (due at once) … */
  neverAttempted: number;
  /** … due within 10 s (a first retry), and due later (the 5-minute retry and beyond). */
  dueWithin10s: number;
  dueLater: number;
  /** When the last pending delivery would have come due by the retry schedule, from then. */
  lastDueInSeconds: number;
  /** How they were made due: the subscription's `PATCH {enabled: true}`. */
  madeDueBy: string;
  /** Pending when made due, and how long from then until the last one arrived. */
  backlog: number;
  seconds: number;
  /** backlog ÷ seconds. */
  eventsPerSecond: number;
  /** The same between the 10th and the 90th percentile arrival (the steady part). */
  steadyEventsPerSecond: number;
  firstArrivalMs: number;
  undelivered: number;
}

export interface WebhookRun {
  /** At the placement rate of W1's side A, then at a fixed rate below the worker's ceiling. */
  latency: WebhookLatency[];
  targetP99Ms: number;
  /** The first latency row's p99 (median of rounds) meets the target. */
  pass: boolean;
  catchUp?: WebhookCatchUp;
  /** Requests for an already delivered webhook-id, and bad signatures, over every phase. */
  duplicates: number;
  badSignatures: number;
}

/** A time over several runs: the median, min–max and the 95th percentile (nearest rank). */
export interface Timing extends Figure {
  p95: number;
}

/** The finder's page as served: index.html and every file it references, compressed. */
export interface FinderSize {
  files: Array<{ file: string; raw: number; gzip: number; brotli: number }>;
  raw: number;
  gzip: number;
  brotli: number;
  targetBytes: number;
  /** Both totals within the budget. */
  pass: boolean;
}

/** Finder loads measured alike (cold or a return visit): from navigation start. */
export interface FinderLoads {
  runs: number;
  /** To the first result card. */
  ms: Timing;
  /** The page's own answer complete, and the handler search's request sent and answered. */
  documentMs: Figure;
  apiStartMs: Figure;
  apiEndMs: Figure;
  /** Bytes received until the first card (Resource Timing transfer sizes), and requests. */
  bytes: Figure;
  requests: Figure;
}

/** PAGES (issue 22): the handler directory's pages in Chromium. */
export interface PagesRun {
  finderSize: FinderSize;
  /** Navigation start to the first result card, on a throttled network, a fresh context each. */
  firstResult: FinderLoads & {
    /** The CDP Network.emulateNetworkConditions parameters (Chrome DevTools' Slow 3G). */
    network: { latency: number; downloadThroughput: number; uploadThroughput: number };
    targetMs: number;
    /** p95 within the target. */
    pass: boolean;
    /**
     * The return visit: the same context loaded again once the finder's service worker controls
     * it (its shell from the worker's cache, the search from the network). Absent in results
     * from before the worker.
     */
    warm?: FinderLoads & {
      /** Loads the worker controlled (all of them, unless it failed to install). */
      controlled: number;
    };
  };
  /** The admin list: its search answer's responseEnd to the rows in the DOM and painted. */
  adminSearch: {
    handlers: number;
    searches: number;
    terms: string[];
    /** To the list's DOM showing the answer, to the next frame's start, to that frame rendered. */
    domMs: Timing;
    frameMs: Timing;
    paintedMs: Timing;
    /** The answer's body as received and decoded. */
    encodedBytes: Figure;
    decodedBytes: Figure;
    rows: Figure;
    targetMs: number;
    /** p95 within the target. */
    pass: boolean;
  };
  loadAverageBefore: number[];
  loadAverageAfter: number[];
}

/** L (issue 32): a load-sized run of a test suite, at full size through its Jest file. */
export interface LoadTestRun {
  id: string;
  what: string;
  /** The command, to run it again by hand. */
  command: string;
  seconds: number;
  /** Jest's summary line ("12 passed, 12 total"). */
  tests: string;
  pass: boolean;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
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
  webhooks?: WebhookRun;
  pages?: PagesRun;
  loadTests?: LoadTestRun[];
  backOffice?: BackOfficeRun;
  noise: string[];
  notes: string[];
}

export function meets(value: number, target: Target): boolean {
  return target.op === '>=' ? value >= target.value : value <= target.value;
}
