import path from 'node:path';
import { Value } from 'typebox/value';
import { Type, type Static, type TObject } from 'typebox';
import { resolveJwtSecret } from './dev-secret.js';

/** A configuration value that is missing or invalid; its message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the variables of `schema` from `env`: converts strings to the declared types, applies
 * defaults, and throws a ConfigError naming the first bad variable.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    // An empty variable counts as unset, as shells and .env files commonly produce them.
    if (value !== undefined && value !== '') raw[key] = value;
  }
  for (const [name, value] of Object.entries(raw)) {
    // Value.Convert reads numbers as JavaScript does (0x10, 1e3, " 8"); configuration takes
    // plain decimal notation only, like the services' query strings.
    const type = (schema.properties[name] as { type?: unknown }).type;
    if ((type === 'integer' || type === 'number') && !PLAIN_DECIMAL.test(String(value))) {
      throw new ConfigError(`${name}: must be a plain decimal number (got "${String(value)}")`);
    }
  }
  const converted = Value.Default(schema, Value.Convert(schema, raw));
  const errors = Value.Errors(schema, converted);
  const first = errors[0];
  if (first) {
    const name = first.instancePath.replace(/^\//, '') || requiredName(first.params);
    const shown = name in raw ? ` (got "${String(raw[name])}")` : '';
    // A union of literals fails once per literal: list them instead of "must be equal to constant".
    const allowed = errors
      .filter((e) => e.instancePath === first.instancePath && e.keyword === 'const')
      .map((e) => String((e.params as { allowedValue?: unknown }).allowedValue));
    const rule = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : first.message;
    throw new ConfigError(`${name}: ${rule}${shown}`);
  }
  return converted as Static<T>;
}

const PLAIN_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function requiredName(params: unknown): string {
  const missing = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties;
  return missing?.[0] ?? 'configuration';
}

/**
 * The variables every service reads (each service's `.env.example` documents them), to spread into a
 * service's own schema: `Type.Object({ ...commonEnv({ port: 3000, jwtTtl: '1h', dataDir, … }), … })`.
 */
export function commonEnv(defaults: {
  port: number;
  jwtTtl: string;
  dataDir: string;
  /** LOGIN_MAX_FAILURES (default 5). */
  loginMaxFailures?: number;
  /** AUTH_RATE_LIMIT_PER_MINUTE: requests per client to the login (and register) routes. */
  authRateLimitPerMinute: number;
}) {
  return {
    NODE_ENV: Type.Union(
      [Type.Literal('development'), Type.Literal('production'), Type.Literal('test')],
      { default: 'development' },
    ),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaults.port }),
    // Loopback unless told otherwise: a development server (with its demo admin) is not exposed
    // to the network by accident; the container images set HOST=0.0.0.0.
    HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info' },
    ),
    DATA_DIR: Type.String({ default: defaults.dataDir }),
    JWT_SECRET: Type.Optional(Type.String()),
    JWT_TTL: Type.String({ pattern: '^[1-9][0-9]*[smhd]$', default: defaults.jwtTtl }),
    CORS_ORIGINS: Type.String({ default: '' }),
    // Unset: demo data in development only (see seedDemoDefault).
    SEED_DEMO: Type.Optional(Type.Boolean()),
    // How long start-up waits for a configured database to answer before it gives up.
    DATABASE_WAIT_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 30 }),
    RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
    AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({
      minimum: 1,
      default: defaults.authRateLimitPerMinute,
    }),
    // Time a client has to send a whole request before its connection is cut.
    REQUEST_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 30 }),
    TRUST_PROXY_HOPS: Type.Integer({ minimum: 0, maximum: 10, default: 0 }),
    PASSWORD_THREAD_NICENESS: Type.Integer({ minimum: 0, maximum: 19, default: 10 }),
    // Failed logins per client address and account, and per account across all addresses, in a
    // window counted from the first failure (LoginLimiter).
    LOGIN_MAX_FAILURES: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: defaults.loginMaxFailures ?? 5,
    }),
    ACCOUNT_LOGIN_MAX_FAILURES: Type.Integer({ minimum: 1, maximum: 100_000, default: 50 }),
    LOGIN_FAILURE_WINDOW_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 15 }),
    // Shared state of all replicas (rate limits, login-failure counters): Redis when set, this
    // process's memory when not (openSharedState).
    REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
    // Load shedding (loadShedding): 503 with Retry-After while the event loop lags by more than
    // this on average (ms), or more operations than this wait for a database connection; 0: off.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1000 }),
    PRESSURE_MAX_POOL_WAITING: Type.Integer({ minimum: 0, maximum: 100_000, default: 100 }),
    // Traces (tracing.ts): on only when set, sent as OTLP/HTTP to this collector address; the
    // exporter reads it (and the other OTEL_EXPORTER_OTLP_* variables) itself.
    OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
    OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  };
}

/** `CORS_ORIGINS` as a list: comma-separated, blanks dropped. */
export const parseOrigins = (value: string): string[] =>
  value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/** Demo data is loaded into an empty database unless SEED_DEMO says otherwise, never by default in production. */
export const seedDemoDefault = (seedDemo: boolean | undefined, nodeEnv: string): boolean =>
  seedDemo ?? nodeEnv !== 'production';

type CommonEnv = Static<TObject<ReturnType<typeof commonEnv>>>;

/** The settings every service reads, typed and resolved (see commonEnv for each variable). */
export interface CommonConfig {
  env: CommonEnv['NODE_ENV'];
  port: number;
  host: string;
  logLevel: string;
  dataDir: string;
  jwtSecret: string;
  jwtTtl: string;
  corsOrigins: string[];
  seedDemo: boolean;
  databaseWaitMs: number;
  rateLimitPerMinute: number;
  authRateLimitPerMinute: number;
  requestTimeoutMs: number;
  trustProxyHops: number;
  passwordThreadNiceness: number;
  loginMaxFailures: number;
  accountLoginMaxFailures: number;
  loginFailureWindowMs: number;
  redisUrl: string | undefined;
  pressureMaxEventLoopDelayMs: number;
  pressureMaxPoolWaiting: number;
  /** Set when traces are exported (OTEL_EXPORTER_OTLP_ENDPOINT); OTEL_SERVICE_NAME if given. */
  otel: { serviceName: string | undefined } | undefined;
}

/**
 * The common part of a service's configuration from its loaded variables: `databaseUrl` names
 * the service's database variable, which production requires (the embedded databases are for
 * development only).
 */
export function commonConfig(
  e: CommonEnv,
  database: { variable: string; value: string | undefined },
): CommonConfig {
  const production = e.NODE_ENV === 'production';
  if (production && !database.value) {
    throw new ConfigError(`${database.variable}: required when NODE_ENV=production`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    dataDir,
    jwtSecret: resolveJwtSecret({ secret: e.JWT_SECRET, production, dataDir }),
    jwtTtl: e.JWT_TTL,
    corsOrigins: parseOrigins(e.CORS_ORIGINS),
    seedDemo: seedDemoDefault(e.SEED_DEMO, e.NODE_ENV),
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    passwordThreadNiceness: e.PASSWORD_THREAD_NICENESS,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    accountLoginMaxFailures: e.ACCOUNT_LOGIN_MAX_FAILURES,
    loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    redisUrl: e.REDIS_URL,
    pressureMaxEventLoopDelayMs: e.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    pressureMaxPoolWaiting: e.PRESSURE_MAX_POOL_WAITING,
    otel: e.OTEL_EXPORTER_OTLP_ENDPOINT ? { serviceName: e.OTEL_SERVICE_NAME } : undefined,
  };
}
