import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
  onResponseHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A database pool's connections at one moment (the same gauges in both services). */
export interface PoolStats {
  /** The most connections the pool opens (MongoDB: per server). */
  max: number;
  inUse: number;
  idle: number;
  /** Operations waiting for a connection. */
  waiting: number;
}

export interface MetricsOptions {
  /** The database pool's counts, read on each scrape (absent: no pool gauges). */
  poolStats?: () => PoolStats;
  /** Routes that are not timed (default `/health`, `/ready` and `/metrics`). */
  untimed?: readonly string[];
}

/** The app's metrics: its own registry (tests build many apps in one process) and the counters both services keep. */
export interface Metrics {
  registry: Registry;
  /** Logins refused for wrong credentials (LoginLimiter counts them). */
  loginsFailed: Counter;
  /** Logins refused with 429 because a failure limit was spent (LoginLimiter). */
  loginsThrottled: Counter;
  /** A counter in the app's registry, for a service's own events (orders, exports …). */
  counter<L extends string = never>(
    name: string,
    help: string,
    labelNames?: readonly L[],
  ): Counter<L>;
  /**
   * A gauge in the app's registry whose value is read when it is scraped: `collect` sets it
   * (`gauge.set(value)`, or per label), as prom-client's `collect` does, e.g. from a query. A
   * `collect` that fails, or has not ended within GAUGE_COLLECT_TIMEOUT_MS (a database that is
   * down or busy), leaves the gauge without a sample for that scrape (a stale value would look
   * current; an absent series can be alerted on) and is logged; the scrape still answers. One
   * `collect` runs at a time: a scrape that comes while one is still running reports none.
   */
  gauge<L extends string = never>(
    name: string,
    help: string,
    collect: (gauge: Gauge<L>) => void | Promise<void>,
    labelNames?: readonly L[],
  ): Gauge<L>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Seconds; an API answer takes milliseconds, a slow list or export up to seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The route label of requests no route matched (their URLs would be unbounded label values). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How long a scrape waits for a gauge's `collect` (a scraper gives up after about 10 s). */
export const GAUGE_COLLECT_TIMEOUT_MS = 1_000;

/**
 * Prometheus metrics at `GET /metrics` (hidden from the OpenAPI document: it is for the operator's
 * scraper, which reaches the replicas directly, never through the gateway): request durations by
 * method, route pattern and status; requests in flight; Node's process and event-loop metrics;
 * the database pool; the login counters. Register before the routes (their timing is attached
 * as each route is declared) and before other request hooks (so in-flight counts every request).
 *
 * Per request: one integer increment (onRequest) and decrement (onResponse, or onRequestAbort
 * for a client that went away before its answer: Fastify runs no onResponse then), and one
 * histogram observation with a fresh label object, timed by Fastify's own `reply.elapsedTime`.
 * The route pattern is captured per route at start-up (a route-level onResponse hook), since
 * reading `request.routeOptions` builds an object on every access.
 */
export const prometheusMetrics = fp<MetricsOptions>(
  async (app: FastifyInstance, opts) => {
    const registry = new Registry();
    const registers = [registry];
    // nodejs_eventloop_lag_* (p50/p90/p99 …), heap, GC, CPU, handles and open files.
    collectDefaultMetrics({ register: registry });

    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by route pattern.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    let inFlight = 0;
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests received and not yet answered (the scrape itself included).',
      registers,
      collect() {
        this.set(inFlight);
      },
    });
    if (opts.poolStats) {
      const read = opts.poolStats; // a few counters read on each scrape: nothing to cache
      new Gauge({
        name: 'db_pool_connections',
        help: 'Connections of the database pool: in use, idle, and operations waiting for one.',
        labelNames: ['state'] as const,
        registers,
        collect() {
          const pool = read();
          this.set({ state: 'in_use' }, pool.inUse);
          this.set({ state: 'idle' }, pool.idle);
          this.set({ state: 'waiting' }, pool.waiting);
        },
      });
      new Gauge({
        name: 'db_pool_max_connections',
        help: 'The most connections the database pool opens (MongoDB: per server).',
        registers,
        collect() {
          this.set(read().max);
        },
      });
    }

    const counter = <L extends string = never>(
      name: string,
      help: string,
      labelNames: readonly L[] = [],
    ) => new Counter<L>({ name, help, labelNames, registers });

    const gauge = <L extends string = never>(
      name: string,
      help: string,
      collect: (gauge: Gauge<L>) => void | Promise<void>,
      labelNames: readonly L[] = [],
    ): Gauge<L> => {
      let running: Promise<void> | undefined;
      return new Gauge<L>({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const read = async () => {
            if (running) throw new Error('the previous collect is still running');
            running = Promise.resolve(collect(this)).finally(() => (running = undefined));
            await settledWithin(running, GAUGE_COLLECT_TIMEOUT_MS);
          };
          try {
            await read();
          } catch (err) {
            // No sample: unlabelled, remove() drops the value (reset() would report 0).
            if (labelNames.length === 0) this.remove();
            else this.reset();
            app.log.warn({ err, metric: name }, 'gauge not read: no sample this scrape');
          }
        },
      });
    };
    app.decorate('metrics', {
      registry,
      loginsFailed: counter('logins_failed_total', 'Logins refused for wrong credentials.'),
      loginsThrottled: counter(
        'logins_throttled_total',
        'Logins refused with 429 because a failure limit was spent.',
      ),
      counter,
      gauge,
    } satisfies Metrics);

    app.addHook('onRequest', (_request, _reply, done) => {
      inFlight += 1;
      done();
    });
    app.addHook('onRequestAbort', (_request, done) => {
      inFlight -= 1;
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      inFlight -= 1;
      // Matched routes are observed by their own hook below; this one has no route pattern.
      if (request.is404) observe(UNMATCHED_ROUTE, request, reply);
      done();
    });

    function observe(route: string, request: FastifyRequest, reply: FastifyReply): void {
      duration.observe(
        { method: request.method, route, status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    }

    // Probes and scrapes are not timed: they come every few seconds from machines, and would
    // only dilute the API's latency distribution (and a scrape would time itself).
    const untimed = new Set(opts.untimed ?? ['/health', '/ready', '/metrics']);
    app.addHook('onRoute', (route: RouteOptions) => {
      if (untimed.has(route.url)) return;
      const pattern = route.url;
      const timed: onResponseHookHandler = (request, reply, done) => {
        observe(pattern, request, reply);
        done();
      };
      const existing = route.onResponse ?? [];
      route.onResponse = [timed, ...(Array.isArray(existing) ? existing : [existing])];
    });

    app.get(
      '/metrics',
      { schema: { hide: true }, config: { rateLimit: false, auth: 'none' } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store').type(registry.contentType);
        return registry.metrics();
      },
    );
  },
  { name: 'metrics' },
);

/** Resolves when `promise` does, rejects when it does or after `ms`. */
function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not collected within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
