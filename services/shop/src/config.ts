import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  commonEnv,
  ConfigError,
  loadConfig,
  parseOrigins,
  resolveJwtSecret,
  seedDemoDefault,
} from '@dogshop/service-kit';
import { Type, type Static } from 'typebox';

/** The service's package folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable the shop reads; `.env.example` documents each one. */
export const EnvSchema = Type.Object({
  ...commonEnv({
    port: 3000,
    jwtTtl: '1h',
    dataDir: path.join(PACKAGE_ROOT, '.data'),
    loginMaxFailures: 10,
  }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  SHOP_API_KEY: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 10 }),
});
export type Env = Static<typeof EnvSchema>;

export interface ShopConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  logLevel: string;
  databaseUrl: string | undefined;
  databaseWaitMs: number;
  databasePoolMax: number;
  dataDir: string;
  embeddedPgPort: number;
  jwtSecret: string;
  jwtTtl: string;
  apiKey: string | undefined;
  corsOrigins: string[];
  seedDemo: boolean;
  rateLimitPerMinute: number;
  trustProxyHops: number;
  passwordThreadNiceness: number;
  authRateLimitPerMinute: number;
  loginMaxFailures: number;
  accountLoginMaxFailures: number;
  loginFailureWindowMs: number;
  redisUrl: string | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const e = loadConfig(EnvSchema, env);
  if (e.NODE_ENV === 'production' && !e.DATABASE_URL) {
    // The embedded PostgreSQL keeps its data in a local folder: a development convenience only.
    throw new ConfigError('DATABASE_URL: required when NODE_ENV=production');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
    databasePoolMax: e.DATABASE_POOL_MAX,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    jwtSecret: resolveJwtSecret({
      secret: e.JWT_SECRET,
      production: e.NODE_ENV === 'production',
      dataDir: path.resolve(e.DATA_DIR),
    }),
    jwtTtl: e.JWT_TTL,
    apiKey: e.SHOP_API_KEY,
    corsOrigins: parseOrigins(e.CORS_ORIGINS),
    seedDemo: seedDemoDefault(e.SEED_DEMO, e.NODE_ENV),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    passwordThreadNiceness: e.PASSWORD_THREAD_NICENESS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    accountLoginMaxFailures: e.ACCOUNT_LOGIN_MAX_FAILURES,
    loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    redisUrl: e.REDIS_URL,
  };
}
