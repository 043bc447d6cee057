import { loginOperation } from '@dogshop/contracts/handler-directory';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { login } from '../../modules/accounts/service.js';

export interface AccountRouteOptions {
  /** Login: requests per client and minute, stricter against guessing. */
  authRateLimitPerMinute: number;
}

/** Administrator login: no token needed; the answer carries one, so it is personal. */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, opts) => {
  app.post(
    '/auth/login',
    {
      schema: loginOperation,
      config: {
        auth: 'none',
        personal: true,
        rateLimit: { max: opts.authRateLimitPerMinute, timeWindow: 60_000 },
      },
    },
    async (request) => {
      const account = await login(app.db, app.loginLimiter, request.ip, request.body);
      request.log.info({ admin: account.username }, 'administrator logged in');
      return {
        success: true as const,
        token: app.signAccountToken(account),
        user: { id: account.id, username: account.username },
      };
    },
  );
};
