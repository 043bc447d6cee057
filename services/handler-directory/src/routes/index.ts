import { privateNoStore } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authRoutes } from './auth/index.js';
import { publicRoutes } from './public/index.js';
import { userExportRoutes } from './users/export.js';
import { userReadRoutes, userWriteRoutes } from './users/index.js';

export interface RouteOptions {
  authRateLimitPerMinute: number;
}

/**
 * Everything sits under /api. The public list and login need no token; the /users subtree needs
 * a logged-in account, and its writing operations the `admin` role. Both checks run before the
 * body is read, so an unauthorised caller learns nothing from validation errors. Login (a token)
 * and the /users subtree (personal data) answer `Cache-Control: private, no-store`, errors too.
 */
export const routes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  await app.register(
    async (api) => {
      await api.register(publicRoutes);
      await api.register(async (privateScope) => {
        privateNoStore(privateScope);
        await privateScope.register(authRoutes, opts);
        await privateScope.register(async (accountScope) => {
          accountScope.addHook('onRequest', accountScope.requireAccount);
          await accountScope.register(userReadRoutes);
          await accountScope.register(userExportRoutes);
          await accountScope.register(async (writeScope) => {
            writeScope.addHook('onRequest', writeScope.requireWriteAccess);
            await writeScope.register(userWriteRoutes);
          });
        });
      });
    },
    { prefix: '/api' },
  );
};
