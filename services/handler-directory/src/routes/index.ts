import type { ServiceContext } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DirectoryConfig } from '../config.js';
import { accountRoutes } from './accounts/index.js';
import { importRoutes } from './handlers/import.js';
import { handlerRoutes } from './handlers/index.js';

/**
 * Every resource's routes, under /api. Each route declares its auth (`config.auth`: `account`,
 * `admin` or `none`) and whether its answers are personal (`Cache-Control: private, no-store`);
 * service-kit's `routeAuth`, registered just before this, enforces and documents both.
 */
export const routes: FastifyPluginAsyncTypebox<ServiceContext<DirectoryConfig>> = async (
  app,
  { config },
) => {
  await app.register(
    async (api) => {
      await api.register(handlerRoutes);
      await api.register(importRoutes);
      await api.register(accountRoutes, {
        authRateLimitPerMinute: config.authRateLimitPerMinute,
      });
    },
    { prefix: '/api' },
  );
};
