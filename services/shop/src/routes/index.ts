import { privateNoStore } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { categoryRoutes } from './categories/index.js';
import { customerAccountRoutes, customerProfileRoutes } from './customers/index.js';
import { newsletterRoutes } from './newsletter/index.js';
import { orderRoutes } from './orders/index.js';
import { productRoutes } from './products/index.js';
import { reviewListRoutes, reviewWriteRoutes } from './reviews/index.js';
import { statsRoutes } from './stats/index.js';

export interface RouteOptions {
  authRateLimitPerMinute: number;
}

/**
 * Auth is applied per subtree: everything needs `X-API-Key` except the bearer operations
 * (profile, addresses, writing a review), which need a customer's token instead. Answers carrying
 * a token or personal data (orders, register/login, newsletter, the bearer operations) are
 * `Cache-Control: private, no-store`, errors included; catalogue reads are not.
 */
export const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  await app.register(async (apiKeyScope) => {
    apiKeyScope.addHook('onRequest', apiKeyScope.requireApiKey);
    await apiKeyScope.register(productRoutes);
    await apiKeyScope.register(categoryRoutes);
    await apiKeyScope.register(reviewListRoutes);
    await apiKeyScope.register(async (personalScope) => {
      privateNoStore(personalScope);
      await personalScope.register(orderRoutes);
      await personalScope.register(customerAccountRoutes, opts);
      await personalScope.register(newsletterRoutes);
    });
    await apiKeyScope.register(statsRoutes);
  });
  await app.register(async (bearerScope) => {
    bearerScope.addHook('onRequest', bearerScope.requireCustomer);
    privateNoStore(bearerScope);
    await bearerScope.register(customerProfileRoutes);
    await bearerScope.register(reviewWriteRoutes);
  });
};
