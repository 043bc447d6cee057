import {
  apiDocs,
  errorEnvelope,
  germanValidation,
  healthRoutes,
  httpCache,
  loadShedding,
  normalizeInput,
  openSharedState,
  prometheusMetrics,
  rejectNul,
  requestLog,
  routeAuth,
  securityDefaults,
  setPasswordThreadNiceness,
  serverOptions,
  useStrictValidation,
  type Tracing,
} from '@dogshop/service-kit';
import { directorySchemas } from '@dogshop/contracts/handler-directory';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DirectoryConfig } from './config.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { MESSAGES } from './messages.js';
import { auth } from './plugins/auth.js';
import { database } from './plugins/database.js';
import { handlerChanges } from './plugins/handler-changes.js';
import { routes } from './routes/index.js';

export type DirectoryAppConfig = Pick<
  DirectoryConfig,
  | 'logLevel'
  | 'jwtSecret'
  | 'jwtTtl'
  | 'corsOrigins'
  | 'rateLimitPerMinute'
  | 'trustProxyHops'
  | 'authRateLimitPerMinute'
  | 'loginMaxFailures'
  | 'loginFailureWindowMs'
> & {
  /** Lowered priority of the password threads (service-kit's default, 10, when absent). */
  passwordThreadNiceness?: number;
  /** Failed logins per username across all addresses (readConfig sets it; absent: no such limit). */
  accountLoginMaxFailures?: number;
  mongodbUri: string;
  /** Database name; default: the one in the URI, else `handler_directory`. */
  mongodbDbName?: string | undefined;
  /** Time a client has to send a whole request (default 30 s; tests shorten it). */
  requestTimeoutMs?: number;
  /** Redis for the state replicas share (rate limits, login counters); absent: in memory. */
  redisUrl?: string | undefined;
  /** Started tracing (server.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set); absent: none. */
  tracing?: Tracing | undefined;
  /** Load-shedding limits (readConfig sets them; absent or 0: not checked). */
  pressureMaxEventLoopDelayMs?: number;
  pressureMaxPoolWaiting?: number;
};

export const directoryErrorBody = (_statusCode: number, message: string) => ({
  success: false,
  message,
});

/** Builds the handler-directory app without listening; tests inject requests into it. */
export async function buildApp(config: DirectoryAppConfig): Promise<FastifyInstance> {
  if (config.passwordThreadNiceness !== undefined) {
    setPasswordThreadNiceness(config.passwordThreadNiceness);
  }
  const app = Fastify(
    serverOptions({
      logLevel: config.logLevel,
      trustProxyHops: config.trustProxyHops,
      requestTimeoutMs: config.requestTimeoutMs,
      traceIds: config.tracing !== undefined,
      clientErrors: { body: directoryErrorBody, messages: MESSAGES.clientErrors },
    }),
  ).withTypeProvider<TypeBoxTypeProvider>();
  useStrictValidation(app);
  // First, so that every later hook and route runs inside the request's span.
  if (config.tracing) await app.register(config.tracing.plugin);
  await app.register(requestLog);
  // Before the other hooks and routes: every request is counted in flight, every route timed.
  await app.register(prometheusMetrics, { poolStats: () => app.db.poolStats() });
  // Before the rate limiter: a refusal under load costs no rate-limit bookkeeping.
  await app.register(loadShedding, {
    maxEventLoopDelayMs: config.pressureMaxEventLoopDelayMs ?? 0,
    maxPoolWaiting: config.pressureMaxPoolWaiting ?? 0,
    poolStats: () => app.db.poolStats(),
    message: MESSAGES.overloaded,
  });
  // Rate limits and login-failure counts of all replicas: in Redis with REDIS_URL, else in memory.
  const shared = await openSharedState({
    url: config.redisUrl,
    keyPrefix: 'handler-directory:',
    log: app.log,
  });
  app.addHook('onClose', async () => shared.close());

  await app.register(errorEnvelope, {
    body: directoryErrorBody,
    isUnavailable: isDatabaseUnavailable,
    localize: germanValidation(MESSAGES),
    messages: {
      notFound: MESSAGES.routeNotFound,
      internal: MESSAGES.internal,
      validation: MESSAGES.invalidRequest,
      unknownField: MESSAGES.unknownField,
      byStatus: {
        400: MESSAGES.malformedBody,
        413: MESSAGES.bodyTooLarge,
        415: MESSAGES.unsupportedMediaType,
        503: MESSAGES.unavailable,
      },
      byCode: { FST_ERR_BAD_URL: MESSAGES.malformedUrl },
    },
  });
  await app.register(securityDefaults, {
    corsOrigins: config.corsOrigins,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitMessage: MESSAGES.tooManyRequests,
    rateLimitRedis: shared.rateLimitRedis,
    rateLimitNameSpace: shared.rateLimitNameSpace,
  });
  await app.register(apiDocs, {
    title: 'Hundeführer-Verzeichnis API',
    version: '1.0.0',
    description:
      'Directory of hunting-dog handlers: a public list of available handlers (optionally nearest first) and an administrator area behind a JWT. Messages are German. Errors: `{success:false, message}`.',
    securitySchemes: {
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    tags: [
      { name: 'Public', description: 'Available handlers, no login' },
      { name: 'Auth', description: 'Administrator login' },
      { name: 'Handlers', description: 'Manage handlers (viewer: read only)' },
      { name: 'Export', description: 'All handlers as JSON or CSV' },
      { name: 'Operations', description: 'Health and readiness' },
    ],
    schemas: directorySchemas,
  });
  await app.register(database, { uri: config.mongodbUri, dbName: config.mongodbDbName });
  // Writes to the handlers announce themselves to every replica; the public list is kept until then.
  await app.register(handlerChanges, { invalidation: shared.invalidation });
  await app.register(auth, {
    secret: config.jwtSecret,
    ttl: config.jwtTtl,
    loginMaxFailures: config.loginMaxFailures,
    accountLoginMaxFailures: config.accountLoginMaxFailures,
    loginFailureWindowMs: config.loginFailureWindowMs,
    loginCounterStore: shared.counters,
  });
  await app.register(normalizeInput);
  await app.register(rejectNul, { message: MESSAGES.containsNul });
  await app.register(healthRoutes, {
    isReady: async () => {
      await app.db.ping();
      return true;
    },
  });
  // Every API route declares `config.auth` (and `personal`): routeAuth checks and documents it, in
  // the routes' own scope (health and docs declare theirs above).
  await app.register(async (api) => {
    await api.register(routeAuth, { schemes: app.authSchemes });
    await api.register(httpCache); // `config.cache`: ETag, 304, Cache-Control
    await api.register(routes, { authRateLimitPerMinute: config.authRateLimitPerMinute });
  });
  return app;
}
