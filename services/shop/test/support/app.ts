import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type ShopAppConfig } from '../../src/app.js';
import { registerApiKey } from '../../src/modules/api-keys/service.js';
import { createTestDatabase } from './database.js';

export const TEST_API_KEY = 'test-api-key-0123456789abcdef0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789';

export interface TestApp {
  app: FastifyInstance;
  /** The configuration the app was built with (its database included). */
  config: ShopAppConfig;
  /** Injects a request carrying the test API key (unless headers override it). */
  request: (opts: InjectOptions) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
}

/** The real app on its own fresh database, with a registered API key. */
export async function createTestApp(overrides: Partial<ShopAppConfig> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: ShopAppConfig = {
    logLevel: 'silent',
    databaseUrl: database.url,
    databasePoolMax: 5,
    jwtSecret: TEST_JWT_SECRET,
    jwtTtl: '1h',
    corsOrigins: [],
    rateLimitPerMinute: 100_000,
    trustProxyHops: 0,
    authRateLimitPerMinute: 100_000,
    // Full priority: turbo runs every package's tests at once, and lowered-priority hash threads
    // would get so little CPU that login-heavy tests time out. The benchmark measures the default.
    passwordThreadNiceness: 0,
    ...overrides,
  };
  const app = await buildApp(config);
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
