import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonConfig, commonEnv, loadConfig, type CommonConfig } from '@dogshop/service-kit';
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

/** The common settings (service-kit's CommonConfig) and the directory's own. */
export interface DirectoryConfig extends CommonConfig {
  mongodbUri: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  authRateLimitPerMinute: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig {
  const e = loadConfig(EnvSchema, env);
  return {
    // Production requires MONGODB_URI: the embedded database (the stand-in, or a throw-away
    // mongod) is for development only.
    ...commonConfig(e, { variable: 'MONGODB_URI', value: e.MONGODB_URI }),
    mongodbUri: e.MONGODB_URI,
    adminUsername: e.ADMIN_USERNAME.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
  };
}
