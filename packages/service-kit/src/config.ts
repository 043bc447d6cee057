import { Value } from 'typebox/value';
import type { Static, TObject } from 'typebox';

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
