import { documented } from '@dogshop/contracts/common';
import {
  EXAMPLE_ADMIN_TOKEN,
  LoginBodySchema,
  LoginResponseSchema,
} from '@dogshop/contracts/handler-directory';
import { tooManyLoginFailures, unauthorized } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normalizeUsername } from '../../domain/admin-account.js';
import { MESSAGES } from '../../messages.js';
import { authenticate } from '../../services/admins.js';
import type { RouteOptions } from '../index.js';
import { errorResponses } from '../responses.js';

export const authRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['Auth'],
        operationId: 'login',
        summary: 'Log in as an administrator and receive a JWT',
        description:
          'Unknown username and wrong password answer the same 401. After repeated failures for the same username from the same client, or many for the same username from any clients, further attempts answer 429 with `Retry-After` until the window ends, without checking the password.',
        security: [],
        body: documented(LoginBodySchema, {
          examples: [{ username: 'anna.admin', password: 'a long admin passphrase' }],
        }),
        response: {
          200: documented(LoginResponseSchema, {
            description: 'Logged in; `token` is the bearer token',
            examples: [
              {
                success: true,
                token: EXAMPLE_ADMIN_TOKEN,
                user: { id: '665f1c2ab4d3e8a1c2f0b001', username: 'anna.admin' },
              },
            ],
          }),
          ...errorResponses(
            [400, `${MESSAGES.invalidRequest}body.username must be string`],
            [
              401,
              MESSAGES.loginFailed,
              'Unknown username, wrong password or disabled account (same answer for all)',
            ],
            413,
            415,
            [
              429,
              MESSAGES.tooManyLoginFailures(840),
              'Too many failed logins for this username from this client or from all clients, or too many requests: retry after `Retry-After` seconds',
            ],
          ),
        },
      },
      config: { rateLimit: { max: opts.authRateLimitPerMinute, timeWindow: 60_000 } },
    },
    async (request) => {
      const { username, password } = request.body;
      const attempt = await app.loginLimiter.attempt(request.ip, normalizeUsername(username), () =>
        authenticate(app.db, username, password),
      );
      if (attempt.limited) {
        const seconds = attempt.retryAfterSeconds;
        throw tooManyLoginFailures(MESSAGES.tooManyLoginFailures(seconds), seconds);
      }
      const admin = attempt.account;
      if (!admin) throw unauthorized(MESSAGES.loginFailed);
      request.log.info({ admin: admin.username }, 'administrator logged in');
      return {
        success: true as const,
        token: app.signAdminToken(admin),
        user: { id: admin.id, username: admin.username },
      };
    },
  );
};
