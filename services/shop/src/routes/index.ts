import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addressRoutes } from './addresses/index.js';
import { categoryRoutes } from './categories/index.js';
import { customerRoutes, type CustomerRouteOptions } from './customers/index.js';
import { newsletterRoutes } from './newsletter/index.js';
import { orderRoutes } from './orders/index.js';
import { productRoutes } from './products/index.js';
import { reviewRoutes } from './reviews/index.js';
import { statsRoutes } from './stats/index.js';

export type RouteOptions = CustomerRouteOptions;

/**
 * Every resource's routes. Each route declares its auth (`config.auth`: `apiKey`, `customer` or
 * `none`) and whether its answers are personal (`Cache-Control: private, no-store`); service-kit's
 * `routeAuth`, registered just before this, enforces and documents both.
 */
export const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  await app.register(productRoutes);
  await app.register(categoryRoutes);
  await app.register(reviewRoutes);
  await app.register(orderRoutes);
  await app.register(customerRoutes, opts);
  await app.register(addressRoutes);
  await app.register(newsletterRoutes);
  await app.register(statsRoutes);
};
