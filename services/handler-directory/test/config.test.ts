import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@dogshop/service-kit';
import { EnvSchema, PACKAGE_ROOT, readConfig } from '../src/config.js';

const dataDir = path.join(os.tmpdir(), 'hd-config-test');
const base = { DATA_DIR: dataDir, JWT_SECRET: 's'.repeat(32) };

describe('configuration', () => {
  it('defaults to port 3001, 8-hour tokens, 5 login failures per 15 minutes and the demo directory', () => {
    const config = readConfig(base);
    expect(config).toMatchObject({
      port: 3001,
      host: '127.0.0.1',
      jwtTtl: '8h',
      adminUsername: 'admin',
      seedDemo: true,
      loginMaxFailures: 5,
      loginFailureWindowMs: 15 * 60_000,
      mongodbUri: undefined,
    });
    expect(readConfig({ JWT_SECRET: base.JWT_SECRET }).dataDir).toBe(
      path.join(PACKAGE_ROOT, '.data'),
    );
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT/],
    [{ MONGODB_URI: 'postgres://x' }, /^MONGODB_URI/],
    [{ JWT_TTL: '8 hours' }, /^JWT_TTL/],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET: must be at least 32/],
    [{ ADMIN_PASSWORD: 'short' }, /^ADMIN_PASSWORD/],
    [{ ADMIN_USERNAME: 'a b' }, /^ADMIN_USERNAME/],
    [{ SEED_DEMO: 'maybe' }, /^SEED_DEMO/],
    [{ LOGIN_MAX_FAILURES: '0' }, /^LOGIN_MAX_FAILURES/],
    [{ NODE_ENV: 'production' }, /^MONGODB_URI: required when NODE_ENV=production/],
    [
      { NODE_ENV: 'production', MONGODB_URI: 'mongodb://h/db', JWT_SECRET: '' },
      /^JWT_SECRET: required when NODE_ENV=production/,
    ],
    [
      { LOG_LEVEL: 'loud' },
      /^LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent/,
    ],
    [{ PORT: '+3001' }, /^PORT: must be a plain decimal number/],
  ])('stops with one line naming the variable for %j', (env, message) => {
    expect(() => readConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => readConfig({ ...base, ...env })).toThrow(message);
  });

  it('loads the demo directory by default in development only; SEED_DEMO decides when set', () => {
    const production = { NODE_ENV: 'production', MONGODB_URI: 'mongodb://h/db' };
    expect(readConfig({ ...base, ...production }).seedDemo).toBe(false);
    expect(readConfig({ ...base, ...production, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('documents every variable in .env.example', () => {
    const example = readFileSync(path.join(PACKAGE_ROOT, '.env.example'), 'utf8');
    for (const name of Object.keys(EnvSchema.properties))
      expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});
