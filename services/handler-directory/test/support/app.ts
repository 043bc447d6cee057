import type { RuntimeOptions } from '@dogshop/service-kit';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { readConfig, type DirectoryConfig } from '../../src/config.js';
import {
  createAccount,
  type Account as StoredAccount,
} from '../../src/modules/accounts/service.js';
import { testMongoUri, uniqueDbName } from './database.js';
import { bearer } from './tokens.js';

export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789';
export const ADMIN = { username: 'anna.admin', password: 'admin-password-1234' };
export const VIEWER = { username: 'viktor.viewer', password: 'viewer-password-1234' };

export interface Account extends StoredAccount {
  token: string;
}

export interface TestApp {
  app: FastifyInstance;
  /** The configuration the app was built with (its database included). */
  config: DirectoryConfig;
  admin: Account;
  viewer: Account;
  /** Injects a request; `as` adds that account's bearer token. */
  request: (opts: InjectOptions & { as?: Account }) => Promise<LightMyRequestResponse>;
  /** Logs in through the API and returns the token. */
  login: (username: string, password: string) => Promise<string>;
  close: () => Promise<void>;
}

/**
 * The directory's configuration as `readConfig` gives it, for tests: its own database, limits
 * out of the way (tests that check a limit set their own), silent logs, load shedding off, then
 * `overrides`.
 */
export function testConfig(overrides: Partial<DirectoryConfig> = {}): DirectoryConfig {
  return {
    ...readConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      MONGODB_URI: testMongoUri(),
      MONGODB_DB_NAME: uniqueDbName(),
      JWT_SECRET: TEST_JWT_SECRET,
      JWT_TTL: '1h',
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_MAX_FAILURES: '5',
      LOGIN_FAILURE_WINDOW_MINUTES: '15',
      ACCOUNT_LOGIN_MAX_FAILURES: '100000',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      PRESSURE_MAX_POOL_WAITING: '0',
      // Full priority: turbo runs every package's tests at once, and lowered-priority hash
      // threads would get so little CPU that login-heavy tests time out. The benchmark
      // measures the default.
      PASSWORD_THREAD_NICENESS: '0',
      // No map tiles: tests send nothing off this machine (a page test that wants tiles serves
      // them on loopback).
      MAP_TILE_URL: 'none',
    }),
    ...overrides,
  };
}

/**
 * The real app on its own database, with an admin and a viewer created through the service code
 * and logged in through the API.
 */
export async function createTestApp(
  overrides: Partial<DirectoryConfig> = {},
  runtime: RuntimeOptions = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const app = await buildApp(config, runtime);
  await app.ready();
  const login = async (username: string, password: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    });
    if (res.statusCode !== 200)
      throw new Error(`login of ${username} failed: ${res.statusCode} ${res.body}`);
    return res.json<{ token: string }>().token;
  };
  const admin = await createAccount(app.db, { ...ADMIN, role: 'admin' });
  const viewer = await createAccount(app.db, { ...VIEWER, role: 'viewer' });
  const t: TestApp = {
    app,
    config,
    admin: { ...admin, token: await login(ADMIN.username, ADMIN.password) },
    viewer: { ...viewer, token: await login(VIEWER.username, VIEWER.password) },
    request: ({ as, ...opts }) =>
      app.inject({ ...opts, headers: { ...(as ? bearer(as.token) : {}), ...opts.headers } }),
    login,
    close: async () => {
      await app.db.connection.dropDatabase();
      await app.close();
    },
  };
  return t;
}
