import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { PinoPretty } from 'pino-pretty';
import { LEVEL_VALUES } from './request-logger.js';
import { traceIdsOfActiveSpan } from './tracing.js';

/** Log fields that must never be written: secrets in headers and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.secret',
];

/**
 * pino with secrets redacted: JSON lines when stdout is a file, a pipe or a log collector;
 * coloured single lines when a person watches a terminal (so the once-printed API key or admin
 * password does not scroll away under JSON). With `traceIds` (tracing is on) each line written
 * inside a traced request carries its `trace_id` and `span_id`; without it, no mixin at all.
 */
export function loggerOptions(
  level: string,
  opts: { traceIds?: boolean } = {},
): NonNullable<FastifyServerOptions['logger']> {
  const base = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(opts.traceIds === true && { mixin: traceIdsOfActiveSpan }),
  };
  if (!process.stdout.isTTY) return base;
  return {
    ...base,
    stream: PinoPretty({
      colorize: true,
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
    }),
  };
}

/**
 * One log line per request, when it has been answered, instead of Fastify's two ("incoming
 * request" and "request completed"): method, URL, status and time, with the request id.
 * serverOptions turns Fastify's own request lines off.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', (request, reply, done) => {
      const level = reply.statusCode >= 500 ? 'error' : 'info';
      // Above info (LOG_LEVEL=warn, as the bench runs) the line would be dropped: not built at all.
      if ((LEVEL_VALUES[request.log.level] ?? 0) > LEVEL_VALUES[level]!) {
        done();
        return;
      }
      const line = {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      };
      const message = `${request.method} ${request.url} ${reply.statusCode}`;
      request.log[level](line, message);
      done();
    });
  },
  { name: 'request-log' },
);
