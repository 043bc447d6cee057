import {
  changePasswordOperation,
  createAccountOperation,
  getAccountOperation,
  getMeOperation,
  listAccountsOperation,
  loginOperation,
  resetAccountPasswordOperation,
  setPasswordOperation,
  updateAccountOperation,
} from '@dogshop/contracts/handler-directory';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MESSAGES } from '../../messages.js';
import { toAccountView } from '../../modules/accounts/mapper.js';
import {
  addAccount,
  changeAccount,
  changePassword,
  getAccount,
  listAccounts,
  login,
  resetPassword,
  setPasswordWithToken,
} from '../../modules/accounts/service.js';

export interface AccountRouteOptions {
  /** Login and passwords: requests per client and minute, stricter against guessing. */
  authRateLimitPerMinute: number;
}

/**
 * Sign-in and passwords (under /auth: login and set-password need no token, the others any
 * account's) and the accounts themselves (under /accounts, admin only). Every answer is personal.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, opts) => {
  const guarded = { max: opts.authRateLimitPerMinute, timeWindow: 60_000 };
  const signedIn = { auth: 'account', personal: true } as const;
  const admin = { auth: 'admin', personal: true } as const;

  app.post(
    '/auth/login',
    { schema: loginOperation, config: { auth: 'none', personal: true, rateLimit: guarded } },
    async (request) => {
      const account = await login(app.db, app.loginLimiter, request.ip, request.body);
      request.log.info({ account: account.username, role: account.role }, 'account logged in');
      return {
        success: true as const,
        token: app.signAccountToken(account),
        user: { id: account.id, username: account.username, role: account.role },
      };
    },
  );

  app.get('/auth/me', { schema: getMeOperation, config: signedIn }, async (request) => {
    const { id, username, role, handlerId } = request.account!;
    return { success: true as const, data: { id, username, role, handlerId } };
  });

  app.put(
    '/auth/password',
    { schema: changePasswordOperation, config: { ...signedIn, rateLimit: guarded } },
    async (request) => {
      const account = await changePassword(
        app.db,
        app.loginLimiter,
        request.ip,
        request.account!,
        request.body,
      );
      return {
        success: true as const,
        message: MESSAGES.passwordSet,
        token: app.signAccountToken(account),
      };
    },
  );

  app.post(
    '/auth/set-password',
    { schema: setPasswordOperation, config: { auth: 'none', personal: true, rateLimit: guarded } },
    async (request) => {
      const account = await setPasswordWithToken(app.db, request.body.token, request.body.password);
      request.log.info({ account: account.username }, 'password set with a one-time token');
      return { success: true as const, message: MESSAGES.passwordSet };
    },
  );

  app.get('/accounts', { schema: listAccountsOperation, config: admin }, async () => ({
    success: true as const,
    data: (await listAccounts(app.db)).map(toAccountView),
  }));

  app.get('/accounts/:id', { schema: getAccountOperation, config: admin }, async (request) => ({
    success: true as const,
    data: toAccountView(await getAccount(app.db, request.params.id)),
  }));

  app.post(
    '/accounts',
    { schema: createAccountOperation, config: admin },
    async (request, reply) => {
      const { account, setPassword } = await addAccount(app.db, request.body);
      reply.code(201);
      return {
        success: true as const,
        data: toAccountView(account),
        ...(setPassword
          ? {
              setPasswordToken: setPassword.token,
              setPasswordExpiresAt: setPassword.expiresAt.toISOString(),
            }
          : {}),
      };
    },
  );

  app.patch(
    '/accounts/:id',
    { schema: updateAccountOperation, config: admin },
    async (request) => ({
      success: true as const,
      data: toAccountView(await changeAccount(app.db, request.params.id, request.body)),
    }),
  );

  app.post(
    '/accounts/:id/password-reset',
    { schema: resetAccountPasswordOperation, config: admin },
    async (request) => {
      const { token, expiresAt } = await resetPassword(app.db, request.params.id);
      return {
        success: true as const,
        setPasswordToken: token,
        setPasswordExpiresAt: expiresAt.toISOString(),
      };
    },
  );
};
