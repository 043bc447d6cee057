import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './http-error.js';
import type { PoolStats } from './metrics.js';

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over a sample interval above which requests are refused; 0: off. */
  maxEventLoopDelayMs: number;
  /** Operations waiting for a database connection above which requests are refused; 0: off. */
  maxPoolWaiting: number;
  /** The database pool's counts (needed for maxPoolWaiting); read once per sample interval. */
  poolStats?: () => PoolStats;
  /** The refusal's message, in the service's language (rendered in its error envelope). */
  message: string;
  /** Retry-After of a refusal, in seconds (default 5). */
  retryAfterSeconds?: number;
  /** How often the event-loop delay and the pool are sampled, in ms (default 500). */
  sampleIntervalMs?: number;
  /**
   * Routes always served (default `/health` and `/metrics`): liveness must stay 200 under load, or
   * an orchestrator restarts a replica that is merely busy; the scraper must see the overload.
   */
  exempt?: readonly string[];
  /**
   * The readiness route (default `/ready`): refused with its own body, `{status: 'overloaded'}`,
   * so that a load balancer sends new requests to replicas with room.
   */
  readiness?: string;
}

type PressureType = 'eventLoopDelay' | 'healthCheck';
const REASON: Record<PressureType, string> = {
  eventLoopDelay: 'event_loop',
  healthCheck: 'db_pool',
};

/**
 * Load shedding with @fastify/under-pressure: while the event loop lags beyond its limit, or more
 * operations wait for a database connection than allowed, requests are answered at once with 503
 * and `Retry-After` in the service's error envelope, instead of queueing without bound. Both are
 * sampled on a timer; a request pays under-pressure's onRequest hook (a few comparisons, and its
 * read of `request.routeOptions`, one small object), nothing when both limits are 0. With the
 * metrics plugin, refusals count in `http_requests_shed_total{reason}`.
 *
 * Register it before the rate limiter, so that shedding costs no rate-limit bookkeeping (nor a
 * Redis round trip); `poolStats` is first read when the app is ready, so the database plugin may
 * register later.
 */
export const loadShedding = fp<LoadSheddingOptions>(
  async (app: FastifyInstance, opts) => {
    const pool = opts.poolStats;
    const checkPool = opts.maxPoolWaiting > 0 && pool !== undefined;
    if (opts.maxEventLoopDelayMs === 0 && !checkPool) return; // nothing to watch

    const retryAfter = String(opts.retryAfterSeconds ?? 5);
    const exempt = new Set(opts.exempt ?? ['/health', '/metrics']);
    const readiness = opts.readiness ?? '/ready';
    const shed = app.hasDecorator('metrics')
      ? app.metrics.counter('http_requests_shed_total', 'Requests refused with 503 under load.', [
          'reason',
        ])
      : undefined;

    const pressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string) => {
      const url = request.routeOptions.url; // builds an object: only while shedding
      if (url !== undefined && exempt.has(url)) return undefined; // served as usual
      shed?.inc({ reason: REASON[type as PressureType] ?? type });
      if (url === readiness) {
        reply.code(503).header('retry-after', retryAfter);
        return { status: 'overloaded' }; // under-pressure sends a returned value as the answer
      }
      // The error handler renders it in the service's envelope, with its headers.
      return Promise.reject(new HttpError(503, opts.message, { 'retry-after': retryAfter }));
    };

    let ready = false;
    app.addHook('onReady', async () => {
      ready = true;
    });
    const interval = opts.sampleIntervalMs ?? 500;
    await app.register(underPressure, {
      maxEventLoopDelay: opts.maxEventLoopDelayMs,
      sampleInterval: interval,
      ...(checkPool && {
        // "Healthy" while few enough wait for a connection; under-pressure also runs it once at
        // registration, before the database plugin has opened the pool.
        healthCheck: async () => !ready || pool().waiting <= opts.maxPoolWaiting,
        healthCheckInterval: interval,
      }),
      // Its types allow only void, but a returned value is sent as the answer (README).
      pressureHandler: pressureHandler as FastifyUnderPressureOptions['pressureHandler'],
    });
  },
  { name: 'load-shedding' },
);
