import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './http-error.js';

export interface SecurityOptions {
  /** Allowed CORS origins; empty means no cross-origin access. */
  corsOrigins: string[];
  /** Requests per client per minute across the API (routes may set stricter limits). */
  rateLimitPerMinute: number;
  rateLimitMessage?: string;
}

/** Security headers, CORS and the global rate limit (429 with Retry-After in the service's envelope). */
export const securityDefaults = fp<SecurityOptions>(
  async (app: FastifyInstance, opts) => {
    // Swagger UI needs inline styles and scripts; its plugin sets its own CSP on /docs.
    await app.register(helmet, { contentSecurityPolicy: false, global: true });
    await app.register(cors, {
      origin: opts.corsOrigins.length > 0 ? opts.corsOrigins : false,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition'],
    });
    await app.register(rateLimit, {
      max: opts.rateLimitPerMinute,
      timeWindow: 60_000,
      // Thrown errors reach the error envelope handler, which renders the service's body.
      errorResponseBuilder: (_req, context) =>
        new HttpError(429, opts.rateLimitMessage ?? `Too many requests, retry in ${context.after}`),
    });
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'security-defaults' },
);
