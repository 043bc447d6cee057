import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonConfig, commonEnv, loadConfig, type CommonConfig } from '@dogshop/service-kit';
import { Type, type Static } from 'typebox';
import { PASSWORD_LIMITS, USERNAME_PATTERN } from './modules/accounts/rules.js';

/** The service's package folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable the handler directory reads; `.env.example` documents each one. */
export const EnvSchema = Type.Object({
  ...commonEnv({
    port: 3001,
    jwtTtl: '8h',
    dataDir: path.join(PACKAGE_ROOT, '.data'),
    authRateLimitPerMinute: 20,
  }),
  MONGODB_URI: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://' })),
  ADMIN_USERNAME: Type.String({ pattern: USERNAME_PATTERN, default: 'admin' }),
  ADMIN_PASSWORD: Type.Optional(Type.String(PASSWORD_LIMITS)),
  // The database of MONGODB_URI (default: the one named in the URI, else handler_directory).
  MONGODB_DB_NAME: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$' })),
  // How long the handlers' change history is kept (a TTL index); at least a year.
  HISTORY_RETENTION_DAYS: Type.Integer({ minimum: 365, maximum: 36_500, default: 400 }),
  // The admin app's map tiles: an http(s) URL template with {z}, {x} and {y}; `none`: no tiles
  // (the map still sets a position by a click, and latitude and longitude can be typed).
  MAP_TILE_URL: Type.String({
    pattern: '^none$|^https?://[^/?#\\s]+/[^\\s]*\\{z\\}[^\\s]*\\{x\\}[^\\s]*\\{y\\}',
    default: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  }),
  MAP_TILE_ATTRIBUTION: Type.String({
    maxLength: 300,
    default: '© OpenStreetMap-Mitwirkende',
  }),
});
export type Env = Static<typeof EnvSchema>;

/** The common settings (service-kit's CommonConfig) and the directory's own. */
export interface DirectoryConfig extends CommonConfig {
  mongodbUri: string | undefined;
  mongodbDbName: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  historyRetentionDays: number;
  /** The map tiles of the admin app (pages.ts: their origin joins the pages' `img-src`). */
  mapTiles: { url: string; attribution: string } | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig {
  const e = loadConfig(EnvSchema, env);
  return {
    // Production requires MONGODB_URI: the embedded database (the stand-in, or a throw-away
    // mongod) is for development only.
    ...commonConfig(e, { variable: 'MONGODB_URI', value: e.MONGODB_URI }),
    mongodbUri: e.MONGODB_URI,
    mongodbDbName: e.MONGODB_DB_NAME,
    adminUsername: e.ADMIN_USERNAME.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    mapTiles:
      e.MAP_TILE_URL === 'none'
        ? undefined
        : { url: e.MAP_TILE_URL, attribution: e.MAP_TILE_ATTRIBUTION },
  };
}
