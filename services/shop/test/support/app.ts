import type { RuntimeOptions } from '@dogshop/service-kit';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { readConfig, type ShopConfig } from '../../src/config.js';
import { registerApiKey } from '../../src/modules/api-keys/service.js';
import { createTestDatabase } from './database.js';

export const TEST_API_KEY = 'test-api-key-0123456789abcdef0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789';
export const TEST_WEBHOOK_SECRET_KEY = 'test-webhook-secret-key-0123456789abcdef';

export interface TestApp {
  app: FastifyInstance;
  /** The configuration the app was built with (its database included). */
  config: ShopConfig & { databaseUrl: string };
  /** Injects a request carrying the test API key (unless headers override it). */
  request: (opts: InjectOptions) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
}

/**
 * The shop's configuration as `readConfig` gives it, for tests: limits out of the way (tests
 * that check a limit set their own), silent logs, load shedding off, then `overrides`.
 */
export function testConfig(overrides: Partial<ShopConfig> = {}): ShopConfig {
  const config = readConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    JWT_TTL: '1h',
    DATABASE_POOL_MAX: '5',
    RATE_LIMIT_PER_MINUTE: '100000',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    LOGIN_MAX_FAILURES: '1000',
    ACCOUNT_LOGIN_MAX_FAILURES: '100000',
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    PRESSURE_MAX_POOL_WAITING: '0',
    // Full priority: turbo runs every package's tests at once, and lowered-priority hash
    // threads would get so little CPU that login-heavy tests time out. The benchmark
    // measures the default.
    PASSWORD_THREAD_NICENESS: '0',
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
  });
  return {
    ...config,
    // No delivery worker unless a test asks for one (webhookTestConfig): the others' statements
    // and timings stay their own.
    webhooks: { ...config.webhooks, deliver: false },
    ...overrides,
  };
}

/**
 * For tests of webhook delivery: the worker on, http to loopback allowed, polling every
 * `pollIntervalMs`, retries after `retryScheduleMs`.
 */
export const webhookTestConfig = (
  webhooks: Partial<ShopConfig['webhooks']> = {},
): Partial<ShopConfig> => ({
  webhooks: {
    ...testConfig().webhooks,
    deliver: true,
    allowHttp: true,
    allowPrivateTargets: true,
    pollIntervalMs: 20,
    retryScheduleMs: [50, 100, 200],
    timeoutMs: 2_000,
    ...webhooks,
  },
});

/** The real app on its own fresh database, with a registered API key. */
export async function createTestApp(
  overrides: Partial<ShopConfig> = {},
  runtime: RuntimeOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = { ...testConfig(overrides), databaseUrl: database.url };
  const app = await buildApp(config, runtime);
  await app.ready();
  await registerApiKey(app.db, 'tests', TEST_API_KEY);
  return {
    app,
    config,
    request: (opts) =>
      app.inject({ ...opts, headers: { 'x-api-key': TEST_API_KEY, ...opts.headers } }),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
