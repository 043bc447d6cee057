import { buildService, type RuntimeOptions } from '@dogshop/service-kit';
import { shopApi } from '@dogshop/contracts/shop';
import type { FastifyInstance } from 'fastify';
import type { ShopConfig } from './config.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { auth, JWT_AUDIENCE, JWT_ISSUER, STAFF_JWT_AUDIENCE } from './plugins/auth.js';
import { database } from './plugins/database.js';
import { pages } from './plugins/pages.js';
import { webhookDelivery } from './plugins/webhook-delivery.js';
import { routes } from './routes/index.js';

// The service's programmatic entry (tests, infra, bench): its configuration and its app.
export { readConfig, type ShopConfig } from './config.js';
export const shopErrorBody = (statusCode: number, message: string) => ({
  success: false,
  error: message,
  status_code: statusCode,
});

/**
 * Builds the shop app without listening; tests inject requests into it. The shared plugin stack
 * is service-kit's `buildService`; English is its default language.
 */
export async function buildApp(
  config: ShopConfig,
  runtime: RuntimeOptions = {},
): Promise<FastifyInstance> {
  return buildService(
    config,
    {
      name: 'shop',
      api: shopApi,
      errorBody: shopErrorBody,
      // English is the builder's language; the login names what the shop's accounts sign in with.
      messages: { loginFailed: 'Invalid email or password' },
      tokens: { issuer: JWT_ISSUER, audience: JWT_AUDIENCE, otherAudiences: [STAFF_JWT_AUDIENCE] },
      database,
      isDatabaseUnavailable,
      auth,
      plugins: [webhookDelivery, pages], // pages: the admin app at /app/
      routes,
    },
    runtime,
  );
}
