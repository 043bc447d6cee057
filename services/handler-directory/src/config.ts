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
import { PASSWORD_LIMITS, USERNAME_PATTERN } from './modules/accounts/rules.js';

/** The service's package folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable the handler directory reads; `.env.example` documents each one. */
export const EnvSchema = Type.Object({
  ...commonEnv({ port: 3001, jwtTtl: '8h', dataDir: path.join(PACKAGE_ROOT, '.data') }),
  MONGODB_URI: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://' })),
  ADMIN_USERNAME: Type.String({ pattern: USERNAME_PATTERN, default: 'admin' }),
  ADMIN_PASSWORD: Type.Optional(Type.String(PASSWORD_LIMITS)),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 20 }),
});
export type Env = Static<typeof EnvSchema>;

export interface DirectoryConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  logLevel: string;
  mongodbUri: string | undefined;
  databaseWaitMs: number;
  dataDir: string;
  jwtSecret: string;
  jwtTtl: string;
  adminUsername: string;
  adminPassword: string | undefined;
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

export function readConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig {
  const e = loadConfig(EnvSchema, env);
  if (e.NODE_ENV === 'production' && !e.MONGODB_URI) {
    // The embedded database is the development stand-in (or a throw-away mongod): never production.
    throw new ConfigError('MONGODB_URI: required when NODE_ENV=production');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    mongodbUri: e.MONGODB_URI,
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
    dataDir,
    jwtSecret: resolveJwtSecret({
      secret: e.JWT_SECRET,
      production: e.NODE_ENV === 'production',
      dataDir,
    }),
    jwtTtl: e.JWT_TTL,
    adminUsername: e.ADMIN_USERNAME.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
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
