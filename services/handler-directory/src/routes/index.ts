import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountRoutes, type AccountRouteOptions } from './accounts/index.js';
import { handlerRoutes } from './handlers/index.js';

export type RouteOptions = AccountRouteOptions;

/**
 * Every resource's routes, under /api. Each route declares its auth (`config.auth`: `account`,
 * `admin` or `none`) and whether its answers are personal (`Cache-Control: private, no-store`);
 * service-kit's `routeAuth`, registered just before this, enforces and documents both.
 */
export const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  await app.register(
    async (api) => {
      await api.register(handlerRoutes);
      await api.register(accountRoutes, opts);
    },
    { prefix: '/api' },
  );
};
