import {
  apiDocs,
  errorEnvelope,
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
import { shopSchemas } from '@dogshop/contracts/shop';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ShopConfig } from './config.js';
import { auth } from './plugins/auth.js';
import { database } from './plugins/database.js';
import { routes } from './routes/index.js';
import { isDatabaseUnavailable } from './db/unavailable.js';

export type ShopAppConfig = Pick<
  ShopConfig,
  | 'logLevel'
  | 'databasePoolMax'
  | 'jwtSecret'
  | 'jwtTtl'
  | 'corsOrigins'
  | 'rateLimitPerMinute'
  | 'trustProxyHops'
  | 'authRateLimitPerMinute'
> & {
  /** Lowered priority of the password threads (service-kit's default, 10, when absent). */
  passwordThreadNiceness?: number;
  databaseUrl: string;
  /** Time a client has to send a whole request (default 30 s; tests shorten it). */
  requestTimeoutMs?: number;
  /**
   * How long a checked API key is trusted before it is looked up again (default 5 s); a
   * revocation announced through the shared state's invalidation signal ends it at once.
   */
  apiKeyCacheMs?: number;
  /** Redis for the state replicas share (rate limits, login counters); absent: in memory. */
  redisUrl?: string | undefined;
  /** Started tracing (server.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set); absent: none. */
  tracing?: Tracing | undefined;
  /** Login-failure limits; readConfig sets them, absent means none (tests hammering one login). */
  loginMaxFailures?: number;
  accountLoginMaxFailures?: number;
  loginFailureWindowMs?: number;
  /** Load-shedding limits (readConfig sets them; absent or 0: not checked). */
  pressureMaxEventLoopDelayMs?: number;
  pressureMaxPoolWaiting?: number;
};

export const shopErrorBody = (statusCode: number, message: string) => ({
  success: false,
  error: message,
  status_code: statusCode,
});

/** Builds the shop app without listening; tests inject requests into it. */
export async function buildApp(config: ShopAppConfig): Promise<FastifyInstance> {
  if (config.passwordThreadNiceness !== undefined) {
    setPasswordThreadNiceness(config.passwordThreadNiceness);
  }
  const app = Fastify(
    serverOptions({
      logLevel: config.logLevel,
      trustProxyHops: config.trustProxyHops,
      requestTimeoutMs: config.requestTimeoutMs,
      traceIds: config.tracing !== undefined,
      clientErrors: { body: shopErrorBody },
    }),
  ).withTypeProvider<TypeBoxTypeProvider>();
  useStrictValidation(app);
  // First, so that every later hook and route runs inside the request's span.
  if (config.tracing) await app.register(config.tracing.plugin);
  await app.register(requestLog);
  // Before the other hooks and routes: every request is counted in flight, every route timed.
  await app.register(prometheusMetrics, { poolStats: () => app.dbPoolStats() });
  // Before the rate limiter: a refusal under load costs no rate-limit bookkeeping.
  await app.register(loadShedding, {
    maxEventLoopDelayMs: config.pressureMaxEventLoopDelayMs ?? 0,
    maxPoolWaiting: config.pressureMaxPoolWaiting ?? 0,
    poolStats: () => app.dbPoolStats(),
    message: 'Service overloaded, retry later',
  });
  // Rate limits and login-failure counts of all replicas: in Redis with REDIS_URL, else in memory.
  const shared = await openSharedState({ url: config.redisUrl, keyPrefix: 'shop:', log: app.log });
  app.addHook('onClose', async () => shared.close());

  await app.register(errorEnvelope, { body: shopErrorBody, isUnavailable: isDatabaseUnavailable });
  await app.register(securityDefaults, {
    corsOrigins: config.corsOrigins,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitRedis: shared.rateLimitRedis,
    rateLimitNameSpace: shared.rateLimitNameSpace,
  });
  await app.register(apiDocs, {
    title: 'Shop API',
    version: '1.0.0',
    description:
      'Shop catalogue, orders, customer accounts, reviews, newsletter and statistics. Errors: `{success:false, error, status_code}`.',
    securitySchemes: {
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    security: [{ ApiKeyAuth: [] }],
    tags: [
      { name: 'Products', description: 'Catalogue of active products' },
      { name: 'Categories', description: 'Active categories' },
      { name: 'Orders', description: 'Orders with stock and status' },
      { name: 'Customers', description: 'Accounts, login and profile' },
      { name: 'Reviews', description: 'Product reviews' },
      { name: 'Newsletter', description: 'Newsletter subscription' },
      { name: 'Statistics', description: 'Overall counts' },
      { name: 'Operations', description: 'Health and readiness' },
    ],
    schemas: shopSchemas,
  });
  await app.register(database, { url: config.databaseUrl, poolMax: config.databasePoolMax });
  await app.register(auth, {
    secret: config.jwtSecret,
    ttl: config.jwtTtl,
    apiKeyCacheMs: config.apiKeyCacheMs ?? 5_000,
    invalidation: shared.invalidation,
    loginMaxFailures: config.loginMaxFailures,
    accountLoginMaxFailures: config.accountLoginMaxFailures,
    loginFailureWindowMs: config.loginFailureWindowMs,
    loginCounterStore: shared.counters,
  });
  await app.register(normalizeInput);
  await app.register(rejectNul);
  await app.register(healthRoutes, {
    isReady: async () => {
      await app.db.$queryRaw`SELECT 1`;
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
