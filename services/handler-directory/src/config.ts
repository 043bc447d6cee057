import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonEnv, loadConfig, parseOrigins, resolveJwtSecret } from '@dogshop/service-kit';
import { Type, type Static } from 'typebox';
import { ADMIN_PASSWORD_LIMITS, USERNAME_PATTERN } from './domain/admin-account.js';

/** The service's package folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable the handler directory reads; `.env.example` documents each one. */
export const EnvSchema = Type.Object({
  ...commonEnv({ port: 3001, jwtTtl: '8h', dataDir: path.join(PACKAGE_ROOT, '.data') }),
  MONGODB_URI: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://' })),
  ADMIN_USERNAME: Type.String({ pattern: USERNAME_PATTERN, default: 'admin' }),
  ADMIN_PASSWORD: Type.Optional(Type.String(ADMIN_PASSWORD_LIMITS)),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 20 }),
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  LOGIN_FAILURE_WINDOW_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: 15 }),
});
export type Env = Static<typeof EnvSchema>;

export interface DirectoryConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  logLevel: string;
  mongodbUri: string | undefined;
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
  loginFailureWindowMs: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig {
  const e = loadConfig(EnvSchema, env);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    mongodbUri: e.MONGODB_URI,
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
    seedDemo: e.SEED_DEMO,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    passwordThreadNiceness: e.PASSWORD_THREAD_NICENESS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
  };
}
