import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonConfig, commonEnv, loadConfig, type CommonConfig } from '@dogshop/service-kit';
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
    authRateLimitPerMinute: 10,
  }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  SHOP_API_KEY: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
  // How long a checked API key is trusted before it is looked up again; a revocation announced
  // through the shared state's invalidation signal ends it at once.
  API_KEY_CACHE_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 5 }),
});
export type Env = Static<typeof EnvSchema>;

/** The common settings (service-kit's CommonConfig) and the shop's own. */
export interface ShopConfig extends CommonConfig {
  databaseUrl: string | undefined;
  databasePoolMax: number;
  embeddedPgPort: number;
  apiKey: string | undefined;
  apiKeyCacheMs: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const e = loadConfig(EnvSchema, env);
  return {
    // Production requires DATABASE_URL: the embedded PostgreSQL is for development only.
    ...commonConfig(e, { variable: 'DATABASE_URL', value: e.DATABASE_URL }),
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    apiKey: e.SHOP_API_KEY,
    apiKeyCacheMs: e.API_KEY_CACHE_SECONDS * 1000,
  };
}
