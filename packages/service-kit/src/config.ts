import { Value } from 'typebox/value';
import { Type, type Static, type TObject } from 'typebox';

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
  const converted = Value.Default(schema, Value.Convert(schema, raw));
  const first = Value.Errors(schema, converted)[0];
  if (first) {
    const name = first.instancePath.replace(/^\//, '') || requiredName(first.params);
    const shown = name in raw ? ` (got "${String(raw[name])}")` : '';
    throw new ConfigError(`${name}: ${first.message}${shown}`);
  }
  return converted as Static<T>;
}

function requiredName(params: unknown): string {
  const missing = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties;
  return missing?.[0] ?? 'configuration';
}

/**
 * The variables every service reads (DESIGN.md, "Operational contract"), to spread into a
 * service's own schema: `Type.Object({ ...commonEnv({ port: 3000, jwtTtl: '1h', dataDir }), … })`.
 */
export function commonEnv(defaults: { port: number; jwtTtl: string; dataDir: string }) {
  return {
    NODE_ENV: Type.Union(
      [Type.Literal('development'), Type.Literal('production'), Type.Literal('test')],
      { default: 'development' },
    ),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: defaults.port }),
    HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info' },
    ),
    DATA_DIR: Type.String({ default: defaults.dataDir }),
    JWT_SECRET: Type.Optional(Type.String()),
    JWT_TTL: Type.String({ pattern: '^[1-9][0-9]*[smhd]$', default: defaults.jwtTtl }),
    CORS_ORIGINS: Type.String({ default: '' }),
    SEED_DEMO: Type.Boolean({ default: true }),
    RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 600 }),
    TRUST_PROXY_HOPS: Type.Integer({ minimum: 0, maximum: 10, default: 0 }),
    PASSWORD_THREAD_NICENESS: Type.Integer({ minimum: 0, maximum: 19, default: 10 }),
  };
}

/** `CORS_ORIGINS` as a list: comma-separated, blanks dropped. */
export const parseOrigins = (value: string): string[] =>
  value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
