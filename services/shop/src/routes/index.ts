import type { ServiceContext } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ShopConfig } from '../config.js';
import { addressRoutes } from './addresses/index.js';
import { categoryRoutes } from './categories/index.js';
import { customerRoutes } from './customers/index.js';
import { eventRoutes } from './events/index.js';
import { newsletterRoutes } from './newsletter/index.js';
import { orderRoutes } from './orders/index.js';
import { productRoutes } from './products/index.js';
import { reviewRoutes } from './reviews/index.js';
import { statsRoutes } from './stats/index.js';
import { webhookRoutes } from './webhooks/index.js';

/**
 * Every resource's routes. Each route declares its auth (`config.auth`: `apiKey`, `customer` or
 * `none`) and whether its answers are personal (`Cache-Control: private, no-store`); service-kit's
 * `routeAuth`, registered just before this, enforces and documents both.
 */
export const routes: FastifyPluginAsyncTypebox<ServiceContext<ShopConfig>> = async (
  app,
  { config },
) => {
  await app.register(productRoutes);
  await app.register(categoryRoutes);
  await app.register(reviewRoutes);
  await app.register(orderRoutes);
  await app.register(customerRoutes, { authRateLimitPerMinute: config.authRateLimitPerMinute });
  await app.register(addressRoutes);
  await app.register(newsletterRoutes);
  await app.register(statsRoutes);
  await app.register(eventRoutes);
  await app.register(webhookRoutes, { webhooks: config.webhooks });
};
