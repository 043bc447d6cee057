import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  commonConfig,
  commonEnv,
  ConfigError,
  loadConfig,
  resolveKeptSecret,
  type CommonConfig,
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
    authRateLimitPerMinute: 10,
  }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  SHOP_API_KEY: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
  // Lifetime of a staff member's token (the back office's working day); customers' is JWT_TTL.
  STAFF_JWT_TTL: Type.String({ pattern: '^[1-9][0-9]*[smhd]$', default: '8h' }),
  // The shop's day for the sales figures (IANA time zone).
  SHOP_TIME_ZONE: Type.String({ minLength: 1, maxLength: 64, default: 'Europe/Berlin' }),
  // How long a checked API key is trusted before it is looked up again; a revocation announced
  // through the shared state's invalidation signal ends it at once.
  API_KEY_CACHE_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 5 }),
  // Webhook targets: https only, and only public addresses, unless these say otherwise
  // (development and tests on this machine; never in production).
  WEBHOOK_ALLOW_HTTP: Type.Boolean({ default: false }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  // Encrypts the webhooks' signing secrets at rest (AES-256-GCM under its SHA-256).
  WEBHOOK_SECRET_KEY: Type.Optional(Type.String()),
  EVENT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  // How long a replica's claim on a delivery lasts: another replica takes over a claim of a
  // replica that died once it ends. Longer than the attempt's time-out (checked below).
  WEBHOOK_CLAIM_LEASE_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 70 }),
  // false: this replica runs no delivery worker (an API-only replica; another must deliver).
  WEBHOOK_DELIVERY: Type.Boolean({ default: true }),
});
export type Env = Static<typeof EnvSchema>;

/** The common settings (service-kit's CommonConfig) and the shop's own. */
export interface ShopConfig extends CommonConfig {
  databaseUrl: string | undefined;
  databasePoolMax: number;
  embeddedPgPort: number;
  apiKey: string | undefined;
  apiKeyCacheMs: number;
  staffJwtTtl: string;
  timeZone: string;
  webhooks: WebhookConfig;
}

/** How webhooks are registered and delivered; tests shorten the timings. */
export interface WebhookConfig {
  allowHttp: boolean;
  allowPrivateTargets: boolean;
  /** Encrypts signing secrets at rest. */
  secretKey: string;
  eventRetentionDays: number;
  /** How often each replica's worker looks for due deliveries. */
  pollIntervalMs: number;
  /** The waits before the 2nd, 3rd … attempt (jitter added); the last one repeats. */
  retryScheduleMs: number[];
  /** A subscription failing this long is disabled. */
  disableAfterMs: number;
  /** A receiver that has not answered within this is a failed attempt. */
  timeoutMs: number;
  /**
   * How long a claim on a delivery lasts (longer than `timeoutMs`): until then no other replica
   * sends it; a replica that dies mid-attempt leaves it due again when it ends.
   */
  claimLeaseMs: number;
  /** The worker runs (off for the CLI and the document generator). */
  deliver: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h … : over a day before the 5 days that disable. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** A receiver that has not answered within this is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const e = loadConfig(EnvSchema, env);
  // Production requires DATABASE_URL: the embedded PostgreSQL is for development only.
  const common = commonConfig(e, { variable: 'DATABASE_URL', value: e.DATABASE_URL });
  if (e.WEBHOOK_CLAIM_LEASE_SECONDS * 1000 <= DELIVERY_TIMEOUT_MS) {
    throw new ConfigError(
      `WEBHOOK_CLAIM_LEASE_SECONDS: must be greater than the ${DELIVERY_TIMEOUT_MS / 1000} s delivery time-out (got "${e.WEBHOOK_CLAIM_LEASE_SECONDS}"); set it to ${DELIVERY_TIMEOUT_MS / 1000 + 1} or more, or leave it unset (70)`,
    );
  }
  return {
    ...common,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    apiKey: e.SHOP_API_KEY,
    apiKeyCacheMs: e.API_KEY_CACHE_SECONDS * 1000,
    staffJwtTtl: e.STAFF_JWT_TTL,
    timeZone: validTimeZone(e.SHOP_TIME_ZONE),
    webhooks: {
      allowHttp: e.WEBHOOK_ALLOW_HTTP,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      secretKey: resolveKeptSecret({
        variable: 'WEBHOOK_SECRET_KEY',
        fileName: 'webhook-secret-key',
        secret: e.WEBHOOK_SECRET_KEY,
        production: common.env === 'production',
        dataDir: common.dataDir,
      }),
      eventRetentionDays: e.EVENT_RETENTION_DAYS,
      pollIntervalMs: 250,
      retryScheduleMs: RETRY_SCHEDULE_MS,
      disableAfterMs: 5 * 24 * HOUR,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      claimLeaseMs: e.WEBHOOK_CLAIM_LEASE_SECONDS * 1000,
      deliver: e.WEBHOOK_DELIVERY,
    },
  };
}

/** The zone itself, or a ConfigError naming the variable when Intl knows no such zone. */
function validTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    throw new ConfigError(
      `SHOP_TIME_ZONE: not a time zone (got "${zone}"); use an IANA name such as Europe/Berlin`,
    );
  }
}
