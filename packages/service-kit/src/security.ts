import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Redis } from 'ioredis';
import { HttpError } from './http-error.js';

export interface SecurityOptions {
  /** Allowed CORS origins; empty means no cross-origin access. */
  corsOrigins: string[];
  /** Requests per client per minute across the API (routes may set stricter limits). */
  rateLimitPerMinute: number;
  rateLimitMessage?: string;
  /**
   * Counts the global and per-route limits in Redis (SharedState's `rateLimitRedis`), shared by
   * every replica; absent: in this process's memory. While Redis cannot be reached the limits
   * fail open: requests pass unchecked (the connection logs the outage once).
   */
  rateLimitRedis?: Redis | undefined;
  /** Prefix of the limiter's Redis keys (SharedState's `rateLimitNameSpace`). */
  rateLimitNameSpace?: string | undefined;
}

/**
 * Helmet's headers for a JSON API (the OWASP REST Security Cheat Sheet's set): HSTS, nosniff,
 * no framing, no referrer, and the resource-policy that keeps other origins from embedding an
 * answer. Off are the headers that only govern HTML documents (opener and origin-agent isolation,
 * DNS prefetch, IE's download prompt, Flash and PDF cross-domain policies, the legacy XSS
 * filter): an API answers JSON and CSV, and each header is bytes on every answer that every
 * client parses. CSP is off too: Swagger UI needs inline styles and scripts, and its plugin sets
 * its own CSP on /docs.
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xFrameOptions: { action: 'deny' },
};

/**
 * The headers helmet sets for `options`, collected once. Without CSP (and so without nonces)
 * every header helmet writes is a constant, so there is no need to run its middleware chain on
 * each request, which is what @fastify/helmet does (it even rebuilds the chain per request).
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error('helmet could not set its headers');
  });
  return headers;
}

/**
 * Security headers (helmet's, for an API: HELMET_OPTIONS), CORS, the global rate limit (429 with
 * Retry-After in the service's envelope) and the `X-Request-Id` echo, on every route.
 */
export const securityDefaults = fp<SecurityOptions>(
  async (app: FastifyInstance, opts) => {
    const securityHeaders = Object.entries(helmetHeaders());
    // First hook of every route (and of unknown routes), so the rate limiter's 429s and every
    // error answer carry these too: Fastify keeps reply headers through its error handler.
    // Callback style: an async hook costs a promise and a microtask per request.
    app.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        for (const [name, value] of securityHeaders) reply.header(name, value);
        reply.header('x-request-id', request.id);
        done();
      },
    );
    // With no allowed origin @fastify/cors only runs a per-request hook that ends in "not
    // enabled"; without it, cross-origin requests and preflights get the same answers (no CORS
    // headers; OPTIONS is an unknown route, 404).
    if (opts.corsOrigins.length > 0) {
      await app.register(cors, {
        origin: opts.corsOrigins,
        methods: ['GET', 'POST', 'PUT', 'DELETE'],
        exposedHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition'],
      });
    }
    await app.register(rateLimit, {
      max: opts.rateLimitPerMinute,
      timeWindow: 60_000,
      ...(opts.rateLimitRedis && {
        redis: opts.rateLimitRedis,
        nameSpace: opts.rateLimitNameSpace ?? 'rate-limit:',
        // Fail open: a request whose count cannot be read or written passes.
        skipOnError: true,
      }),
      // Thrown errors reach the error envelope handler, which renders the service's body.
      errorResponseBuilder: (_req, context) =>
        new HttpError(429, opts.rateLimitMessage ?? `Too many requests, retry in ${context.after}`),
    });
  },
  { name: 'security-defaults' },
);
