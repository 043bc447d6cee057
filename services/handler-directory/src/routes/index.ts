import { named, type ServiceContext } from '@dogshop/service-kit';
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
    named(async (api) => {
      await api.register(named(handlerRoutes));
      await api.register(named(importRoutes));
      await api.register(named(accountRoutes), {
        authRateLimitPerMinute: config.authRateLimitPerMinute,
      });
    }, 'api'),
    { prefix: '/api' },
  );
};
