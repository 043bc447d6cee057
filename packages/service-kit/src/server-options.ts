import { randomUUID } from 'node:crypto';
import { maxHeaderSize as MAX_HEADER_SIZE, type Server } from 'node:http';
import { LogController, type FastifyHttpOptions, type RawRequestDefaultExpression } from 'fastify';
import { clientErrorHandler, type ClientErrorOptions } from './client-errors.js';
import { loggerOptions } from './request-log.js';
import { lazyChildLogger } from './request-logger.js';
import { helmetHeaders } from './security.js';

/** Incoming request ids are honoured only when harmless to echo into headers and logs. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The security headers of every answer (securityDefaults sets the same on routed requests). */
const SECURITY_HEADERS = helmetHeaders();

/**
 * Fastify options both services share: pino logs with secrets redacted (request-log.ts), request ids taken
 * from `X-Request-Id` (or generated) and logged as `request_id`, a 100 kB body limit, and Ajv set
 * up so that unknown body fields are rejected rather than silently dropped.
 */
export function serverOptions(opts: {
  logLevel: string;
  bodyLimit?: number;
  /** Proxy hops in front of the service whose X-Forwarded-For is believed (0: none). */
  trustProxyHops?: number;
  /**
   * Time a client has to send a whole request (default 30 s). When set, the server also checks
   * its connections for it at a quarter of this interval (Node's default check is every 30 s).
   */
  requestTimeoutMs?: number;
  /** Envelope and texts for errors Node's HTTP parser raises (400, 408, 431); else Fastify's. */
  clientErrors?: ClientErrorOptions;
  /** Tracing is on (startTracing): log lines inside a request carry its trace_id and span_id. */
  traceIds?: boolean;
}): FastifyHttpOptions<Server> {
  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  return {
    logger: loggerOptions(opts.logLevel, { traceIds: opts.traceIds }),
    bodyLimit: opts.bodyLimit ?? 100 * 1024,
    // Behind the gateway, the client address (rate limits, login throttling) comes from
    // X-Forwarded-For; trusting a fixed hop count keeps clients from forging it.
    trustProxy: (_address: string, hop: number) => hop < (opts.trustProxyHops ?? 0),
    // Fastify's two lines per request are replaced by the one of the requestLog plugin.
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: true,
    }),
    // Each request's child logger is made when it first writes (request-logger.ts).
    childLoggerFactory: lazyChildLogger,
    genReqId: (req: RawRequestDefaultExpression) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)
        ? incoming
        : randomUUID();
    },
    // Slow-body clients are cut off rather than holding a connection open indefinitely.
    requestTimeout,
    http: {
      // Node swaps the two when headersTimeout (default 60 s) exceeds requestTimeout, which would
      // give a slow body 60 s instead of requestTimeout; equal, both hold.
      headersTimeout: requestTimeout,
      ...(opts.requestTimeoutMs !== undefined && {
        connectionsCheckingInterval: Math.max(50, Math.ceil(requestTimeout / 4)),
      }),
    },
    connectionTimeout: 60_000,
    // Requests arriving while the server closes (on a kept-alive connection) get their 503 from
    // the error envelope (error-envelope.ts), in the service's body, not Fastify's own JSON.
    return503OnClosing: false,
    // A path parameter may be as long as the request line (longer ones are 431 before routing):
    // it reaches its route and is refused there like any other value it does not accept, with
    // the route's hooks and documented answers (the router's own limit, 100 characters, answered
    // 414 outside them).
    routerOptions: { maxParamLength: MAX_HEADER_SIZE },
    // URLs the router cannot decode (`/users/%E0%A4%A`) go through the app's error handler, so
    // they are answered in the service's error envelope; no route hook runs for them, so the
    // headers every answer carries are set here.
    frameworkErrors: (error, request, reply) => {
      reply.headers({ ...SECURITY_HEADERS, 'x-request-id': request.id });
      return request.server.errorHandler(error, request, reply);
    },
    ...(opts.clientErrors && { clientErrorHandler: clientErrorHandler(opts.clientErrors) }),
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
      },
    },
  };
}
