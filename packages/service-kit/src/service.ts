import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { ErrorObject } from 'ajv';
import './account.js'; // request.account
import { bearerTokens } from './bearer-tokens.js';
import type { ClientErrorStatus } from './client-errors.js';
import type { CommonConfig } from './config.js';
import { apiDocs, type DocsOptions } from './docs.js';
import { errorEnvelope, type ErrorEnvelopeOptions } from './error-envelope.js';
import { healthRoutes } from './health.js';
import { httpCache } from './http-cache.js';
import { LoginLimiter } from './login-limiter.js';
import { prometheusMetrics, type PoolStats } from './metrics.js';
import { normalizeInput } from './normalize-input.js';
import { named } from './plugin-name.js';
import { setPasswordThreadNiceness } from './passwords.js';
import { loadShedding } from './pressure.js';
import { rejectNul } from './reject-nul.js';
import { requestLog } from './request-log.js';
import { routeAuth, type AuthScheme } from './route-auth.js';
import { securityDefaults } from './security.js';
import { useCachedSerializers } from './serialization.js';
import { serverOptions } from './server-options.js';
import { openSharedState, type SharedState } from './shared-state.js';
import type { Tracing } from './tracing.js';
import { useStrictValidation } from './validation.js';

/** What the builder needs of a service's database; its database plugin decorates `app.database`. */
export interface DatabaseHealth {
  /** The connection pool's counts now (metrics, load shedding). */
  poolStats(): PoolStats;
  /** Resolves when the database answers (`/ready`). */
  ping(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHealth;
    /** The service's auth schemes, by the names routes use in `config.auth` (its auth plugin sets them). */
    authSchemes: Record<string, AuthScheme>;
    /** Failed logins per client address + account and per account, shared by the replicas. */
    loginLimiter: LoginLimiter;
  }
}

/** What every service plugin is registered with: the service's configuration and shared state. */
export interface ServiceContext<C extends CommonConfig> {
  config: C;
  shared: SharedState;
}

export type ServicePlugin<C extends CommonConfig> = FastifyPluginAsync<ServiceContext<C>>;

/**
 * The texts of the answers the framework and the shared plugins give, in the service's language;
 * each absent one is English.
 */
export interface ServiceMessages {
  routeNotFound?: string;
  internal?: string;
  /** Prefix of validation messages (e.g. `Ungültige Anfrage: `). */
  invalidRequest?: string;
  unknownField?: string;
  malformedBody?: string;
  malformedUrl?: string;
  bodyTooLarge?: string;
  unsupportedMediaType?: string;
  unavailable?: string;
  overloaded?: string;
  tooManyRequests?: string;
  containsNul?: (field: string) => string;
  /** 401 of a login with wrong credentials, and 429 while its limit is spent. */
  loginFailed?: string;
  tooManyLoginFailures?: (retryAfterSeconds: number) => string;
  /** 401 of a bearer route without a token, and with a malformed, expired or forged one. */
  tokenMissing?: string;
  tokenInvalid?: string;
  /** Requests Node's HTTP parser refuses before they reach the app. */
  clientErrors?: Partial<Record<ClientErrorStatus, string>>;
  /** Rewrites validation messages in place, e.g. `germanValidation(...)`. */
  localizeValidation?: (errors: ErrorObject[]) => void;
}

/** What is a service's own; everything else (the plugin stack and its order) is the builder's. */
export interface ServiceDefinition<C extends CommonConfig> {
  /** Prefix of the service's keys in the shared store (rate limits, login counters). */
  name: string;
  /** Title, auth schemes, tags and named schemas of its OpenAPI document (from the contracts). */
  api: DocsOptions;
  /** Its error body, e.g. `{success:false, error, status_code}`. */
  errorBody: ErrorEnvelopeOptions['body'];
  messages?: ServiceMessages;
  /** Issuer and audience of its bearer tokens (HS256, JWT_SECRET, JWT_TTL; signed with `app.jwt.sign`). */
  tokens: { issuer: string; audience: string; otherAudiences?: string[] };
  /** Opens the database (decorating `app.database` and the service's own client). */
  database: ServicePlugin<C>;
  /** True for driver failures that mean "the database cannot be reached now": 503, not 500. */
  isDatabaseUnavailable: (error: unknown) => boolean;
  /** Decorates `app.authSchemes` (and what signs the service's tokens). */
  auth: ServicePlugin<C>;
  /** Plugins the routes rely on, after the database and auth (e.g. kept copies). */
  plugins?: ServicePlugin<C>[];
  /** Every API route; each declares `config.auth`. */
  routes: ServicePlugin<C>;
}

/** What a running process adds to the configuration: started tracing (server.ts). */
export interface RuntimeOptions {
  tracing?: Tracing | undefined;
}

/**
 * Builds a service's Fastify app without listening (tests inject requests into it). The order
 * of the shared plugins is decided here once: tracing first (every later hook runs inside the
 * request's span), the request log, metrics (every request counted in flight, every route
 * timed), load shedding before the rate limiter (a refusal under load costs no rate-limit
 * bookkeeping), the error envelope, security headers and rate limits, the docs, then the
 * service's database and auth, input normalisation, health, and the routes under route auth
 * and the HTTP cache.
 */
export async function buildService<C extends CommonConfig>(
  config: C,
  service: ServiceDefinition<C>,
  runtime: RuntimeOptions = {},
): Promise<FastifyInstance> {
  const text = service.messages ?? {};
  setPasswordThreadNiceness(config.passwordThreadNiceness);
  const app = Fastify(
    serverOptions({
      logLevel: config.logLevel,
      trustProxyHops: config.trustProxyHops,
      requestTimeoutMs: config.requestTimeoutMs,
      traceIds: runtime.tracing !== undefined,
      clientErrors: { body: service.errorBody, messages: text.clientErrors },
    }),
  );
  useStrictValidation(app);
  useCachedSerializers(app);
  app.decorateRequest('account', null);
  if (runtime.tracing) await app.register(runtime.tracing.plugin);
  await app.register(requestLog);
  const poolStats = () => app.database.poolStats();
  await app.register(prometheusMetrics, { poolStats });
  await app.register(loadShedding, {
    maxEventLoopDelayMs: config.pressureMaxEventLoopDelayMs,
    maxPoolWaiting: config.pressureMaxPoolWaiting,
    poolStats,
    message: text.overloaded ?? 'Service overloaded, retry later',
  });
  // Rate limits, login-failure counts and invalidation signals of all replicas: in Redis with
  // REDIS_URL, else in this process's memory.
  const shared = await openSharedState({
    url: config.redisUrl,
    keyPrefix: `${service.name}:`,
    log: app.log,
  });
  app.addHook('onClose', async () => shared.close());
  const context: ServiceContext<C> = { config, shared };

  await app.register(errorEnvelope, {
    body: service.errorBody,
    isUnavailable: service.isDatabaseUnavailable,
    localize: text.localizeValidation,
    messages: {
      notFound: text.routeNotFound,
      internal: text.internal,
      validation: text.invalidRequest,
      unknownField: text.unknownField,
      byStatus: {
        400: text.malformedBody,
        413: text.bodyTooLarge,
        415: text.unsupportedMediaType,
        503: text.unavailable,
      },
      byCode: { FST_ERR_BAD_URL: text.malformedUrl },
    },
  });
  await app.register(securityDefaults, {
    corsOrigins: config.corsOrigins,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitMessage: text.tooManyRequests,
    rateLimitRedis: shared.rateLimitRedis,
    rateLimitNameSpace: shared.rateLimitNameSpace,
  });
  await app.register(apiDocs, service.api);
  await app.register(service.database, context);
  app.decorate(
    'loginLimiter',
    new LoginLimiter({
      maxFailures: config.loginMaxFailures,
      accountMaxFailures: config.accountLoginMaxFailures,
      windowMs: config.loginFailureWindowMs,
      keyPrefix: `${service.name}:`,
      counters: { failed: app.metrics.loginsFailed, throttled: app.metrics.loginsThrottled },
      redis: shared.rateLimitRedis,
      // A Redis that cannot be reached fails closed: 503 with Retry-After.
      unavailableMessage: text.unavailable,
      failedMessage: text.loginFailed,
      tooManyMessage: text.tooManyLoginFailures,
    }),
  );
  await app.register(bearerTokens, {
    secret: config.jwtSecret,
    ttl: config.jwtTtl,
    ...service.tokens,
    messages: {
      missing: text.tokenMissing ?? 'Missing bearer token',
      invalid: text.tokenInvalid ?? 'Invalid or expired token',
    },
  });
  await app.register(service.auth, context);
  for (const plugin of service.plugins ?? []) await app.register(plugin, context);
  await app.register(normalizeInput);
  await app.register(rejectNul, { message: text.containsNul });
  await app.register(healthRoutes, {
    isReady: async () => {
      await app.database.ping();
      return true;
    },
  });
  // Every API route declares `config.auth` (and `personal`): routeAuth checks and documents it,
  // in the routes' own scope (health and docs declare theirs above).
  await app.register(
    named(async (api: FastifyInstance) => {
      await api.register(routeAuth, { schemes: app.authSchemes });
      await api.register(httpCache); // `config.cache`: ETag, 304, Cache-Control
      await api.register(named(service.routes), context);
    }, 'api'),
  );
  return app;
}
