import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';

/**
 * The JWT secret: required (≥ 32 chars) in production; in development a random secret is
 * generated once and kept in the data folder so tokens survive restarts.
 */
export function resolveJwtSecret(opts: {
  secret: string | undefined;
  production: boolean;
  dataDir: string;
}): string {
  return resolveKeptSecret({ ...opts, variable: 'JWT_SECRET', fileName: 'jwt-secret' });
}

/**
 * A secret from `variable`: required (≥ 32 chars) in production; in development generated once
 * and kept in the data folder under `fileName`.
 */
export function resolveKeptSecret(opts: {
  variable: string;
  fileName: string;
  secret: string | undefined;
  production: boolean;
  dataDir: string;
}): string {
  if (opts.secret !== undefined) {
    if (opts.secret.length < 32)
      throw new ConfigError(`${opts.variable}: must be at least 32 characters`);
    return opts.secret;
  }
  if (opts.production) throw new ConfigError(`${opts.variable}: required when NODE_ENV=production`);
  const file = path.join(opts.dataDir, opts.fileName);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // first start: generate below
  }
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(opts.dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
