import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { ConfigError } from '@dogshop/service-kit';
import { readConfig } from '../src/config.js';
import { prepareFirstStart } from '../src/first-start.js';
import { isActiveApiKey, listApiKeys } from '../src/modules/api-keys/service.js';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  jest.restoreAllMocks();
});

const KEY = 'k'.repeat(40);

describe('first start', () => {
  it('loads the demo catalogue into an empty shop and registers SHOP_API_KEY', async () => {
    t = await createTestApp();
    await prepareFirstStart(t.app, { seedDemo: true, apiKey: KEY, env: 'production' });
    expect(await t.app.db.product.count()).toBeGreaterThan(0);
    expect(await isActiveApiKey(t.app.db, KEY)).toBe(true);
    const before = await t.app.db.product.count();
    await prepareFirstStart(t.app, { seedDemo: true, apiKey: KEY, env: 'production' });
    expect(await t.app.db.product.count()).toBe(before);
  });

  it('leaves the catalogue empty with SEED_DEMO=false', async () => {
    t = await createTestApp();
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: undefined, env: 'production' });
    expect(await t.app.db.product.count()).toBe(0);
  });

  it('prints a development key once when no key exists', async () => {
    t = await createTestApp();
    await t.app.db.apiKey.deleteMany();
    const printed: string[] = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: undefined, env: 'development' });
    const key = printed.join('\n').match(/sk_[A-Za-z0-9_-]{43}/)?.[0];
    expect(key).toBeDefined();
    expect(await isActiveApiKey(t.app.db, key!)).toBe(true);
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: undefined, env: 'development' });
    expect(await listApiKeys(t.app.db)).toHaveLength(1);
  });

  it('creates a first admin in development, prints its password once, and it signs in', async () => {
    t = await createTestApp();
    const printed: string[] = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: 'x'.repeat(40), env: 'development' });
    const [, email, password] = printed.join('\n').match(/administrator.*: (\S+) \/ (\S+)/) ?? [];
    expect(email).toBe('admin@shop.local');
    const login = await t.app.inject({
      method: 'POST',
      url: '/admin/auth/login',
      payload: { email, password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ email, role: 'admin' });
    printed.length = 0;
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: 'x'.repeat(40), env: 'development' });
    expect(printed.join('\n')).not.toMatch(/administrator/);
    expect(await t.app.db.staffAccount.count()).toBe(1);
  });

  it('creates no admin in production (staff:create makes the first one there)', async () => {
    t = await createTestApp();
    await prepareFirstStart(t.app, { seedDemo: false, apiKey: 'x'.repeat(40), env: 'production' });
    expect(await t.app.db.staffAccount.count()).toBe(0);
  });
});

describe('configuration', () => {
  const made: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shop-config-'));
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('applies defaults and keeps a generated development secret across reads', () => {
    const dir = dataDir();
    const first = readConfig({ DATA_DIR: dir });
    expect(first).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      jwtTtl: '1h',
      seedDemo: true,
      databasePoolMax: 10,
    });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
  });

  it.each([
    [{ NODE_ENV: 'production' }, /^DATABASE_URL: required when NODE_ENV=production/],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgresql://h/db' }, /^JWT_SECRET: required/],
    [
      { NODE_ENV: 'prod' },
      /^NODE_ENV: must be one of development, production, test \(got "prod"\)/,
    ],
    [{ PORT: '0x10' }, /^PORT: must be a plain decimal number/],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET: must be at least 32/],
    [{ PORT: 'http' }, /^PORT: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [{ JWT_TTL: 'forever' }, /^JWT_TTL: /],
    [{ SEED_DEMO: 'maybe' }, /^SEED_DEMO: /],
  ])('refuses %j with one line naming the variable', (env, message) => {
    const run = () => readConfig({ DATA_DIR: dataDir(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  it('loads demo data by default in development only; SEED_DEMO decides when set', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://h/db' };
    const secret = {
      JWT_SECRET: 's'.repeat(32),
      WEBHOOK_SECRET_KEY: 'w'.repeat(32),
      DATA_DIR: dataDir(),
    };
    expect(readConfig({ ...secret }).seedDemo).toBe(true);
    expect(readConfig({ ...secret, ...production }).seedDemo).toBe(false);
    expect(readConfig({ ...secret, ...production, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(readConfig({ ...secret, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });
});
