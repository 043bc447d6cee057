import {
  forbidden,
  signedInAccountCheck,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
// app.jwt (registered by service-kit's bearerTokens) is typed by @fastify/jwt's declarations.
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { DirectoryConfig } from '../config.js';
import { MESSAGES } from '../messages.js';
import { findActiveAccount, type Account } from '../modules/accounts/service.js';
import { mayWrite } from '../modules/accounts/rules.js';

/** Issuer and audience of the accounts' tokens (service-kit's bearerTokens checks both). */
export const JWT_ISSUER = 'dogshop-handler-directory';
export const JWT_AUDIENCE = 'dogshop-handler-directory-admins';

declare module 'fastify' {
  interface FastifyInstance {
    signAccountToken: (account: Pick<Account, 'id' | 'username' | 'role'>) => string;
  }
}

declare module '@dogshop/service-kit' {
  interface AccountRegistry {
    account: Account;
  }
}

/**
 * The two schemes routes name in `config.auth`: `account` (a bearer token of an existing, enabled
 * account) and `admin` (the same, and the account may change the directory). The account is
 * looked up on every request, so deleting or disabling it ends its tokens at once, and its
 * current role (not the one in the token) decides. Also signs tokens.
 */
export const auth: ServicePlugin<DirectoryConfig> = fp(
  async (app: FastifyInstance, _context: ServiceContext<DirectoryConfig>) => {
    const account = signedInAccountCheck(
      app,
      (id) => findActiveAccount(app.db, id),
      MESSAGES.accountInactive,
    );
    const admin = async (request: FastifyRequest) => {
      await account(request);
      if (!request.account || !mayWrite(request.account.role)) throw forbidden(MESSAGES.forbidden);
    };

    const security = [{ BearerAuth: [] }];
    app.decorate('authSchemes', {
      account: { check: account, security },
      admin: { check: admin, security },
    });
    app.decorate(
      'signAccountToken',
      ({ id, username, role }: Pick<Account, 'id' | 'username' | 'role'>) =>
        app.jwt.sign({ sub: id, username, role }),
    );
  },
  { name: 'auth', dependencies: ['database', 'bearer-tokens'] },
);
