import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, resolveJwtSecret } from '@dogshop/service-kit';
import { Type, type Static } from 'typebox';
import { ADMIN_PASSWORD_LIMITS, USERNAME_PATTERN } from './domain/admin-account.js';

/** The service's package folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable the handler directory reads; `.env.example` documents each one. */
export const EnvSchema = Type.Object({
  NODE_ENV: Type.Union(
    [Type.Literal('development'), Type.Literal('production'), Type.Literal('test')],
    { default: 'development' },
  ),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  MONGODB_URI: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://' })),
  DATA_DIR: Type.String({ default: path.join(PACKAGE_ROOT, '.data') }),
  JWT_SECRET: Type.Optional(Type.String()),
  JWT_TTL: Type.String({ pattern: '^[1-9][0-9]*[smhd]$', default: '8h' }),
  ADMIN_USERNAME: Type.String({ pattern: USERNAME_PATTERN, default: 'admin' }),
  ADMIN_PASSWORD: Type.Optional(Type.String(ADMIN_PASSWORD_LIMITS)),
  CORS_ORIGINS: Type.String({ default: '' }),
  SEED_DEMO: Type.Boolean({ default: true }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
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
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    seedDemo: e.SEED_DEMO,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginFailureWindowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
  };
}
