import {
  forbidden,
  notFound,
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
import { mayReadAll, mayWrite } from '../modules/accounts/rules.js';
import { handlerExists } from '../modules/handlers/service.js';

/** Issuer and audience of the accounts' tokens (service-kit's bearerTokens checks both). */
export const JWT_ISSUER = 'dogshop-handler-directory';
export const JWT_AUDIENCE = 'dogshop-handler-directory-admins';

declare module 'fastify' {
  interface FastifyInstance {
    signAccountToken: (
      account: Pick<Account, 'id' | 'username' | 'role' | 'tokenVersion'>,
    ) => string;
  }
}

declare module '@dogshop/service-kit' {
  interface AccountRegistry {
    account: Account;
  }
}

/**
 * The schemes routes name in `config.auth`, each a bearer token of an existing, enabled account:
 * - `account`: any role;
 * - `staff`: `admin` or `viewer` (every handler, the history, the export);
 * - `admin`: `admin` only (every change, the accounts);
 * - `ownHandlerRead` / `ownHandlerWrite`: `staff` / `admin`, or the `handler` account bound to
 *   the handler of the path's `:id` (object-level authorisation of self-service); when that
 *   handler was deleted, 404 saying so.
 * The account is looked up on every request, so deleting or disabling it, or changing or resetting
 * its password (its token version), ends its tokens at once, and its current role and binding
 * (not the token's) decide. Also signs tokens, with the account's token version (`ver`).
 */
export const auth: ServicePlugin<DirectoryConfig> = fp(
  async (app: FastifyInstance, _context: ServiceContext<DirectoryConfig>) => {
    const account = signedInAccountCheck(
      app,
      (id) => findActiveAccount(app.db, id),
      MESSAGES.accountInactive,
      MESSAGES.tokenEnded,
    );
    const signedIn = async (request: FastifyRequest): Promise<Account> => {
      await account(request);
      return request.account!;
    };
    const staff = async (request: FastifyRequest) => {
      if (!mayReadAll((await signedIn(request)).role))
        throw forbidden(MESSAGES.forbiddenForHandlers);
    };
    const admin = async (request: FastifyRequest) => {
      if (!mayWrite((await signedIn(request)).role)) throw forbidden(MESSAGES.forbidden);
    };
    /** `allowed` for the role, or the handler account bound to the path's handler. */
    const ownHandlerOr =
      (allowed: (role: Account['role']) => boolean) => async (request: FastifyRequest) => {
        const { role, handlerId } = await signedIn(request);
        if (allowed(role)) return;
        const id = (request.params as { id?: string }).id?.toLowerCase();
        if (role !== 'handler') throw forbidden(MESSAGES.forbidden);
        if (!handlerId || id !== handlerId) throw forbidden(MESSAGES.forbiddenOtherHandler);
        // Its record was deleted (the account stays, for an admin to bind it again): said as
        // such, not as an unknown handler.
        if (!(await handlerExists(app.db, handlerId))) throw notFound(MESSAGES.ownHandlerDeleted);
      };

    const security = [{ BearerAuth: [] }];
    app.decorate('authSchemes', {
      account: { check: account, security },
      staff: { check: staff, security },
      admin: { check: admin, security },
      ownHandlerRead: { check: ownHandlerOr(mayReadAll), security },
      ownHandlerWrite: { check: ownHandlerOr(mayWrite), security },
    });
    app.decorate(
      'signAccountToken',
      ({
        id,
        username,
        role,
        tokenVersion,
      }: Pick<Account, 'id' | 'username' | 'role' | 'tokenVersion'>) =>
        app.jwt.sign({ sub: id, username, role, ver: tokenVersion }),
    );
  },
  { name: 'auth', dependencies: ['database', 'bearer-tokens'] },
);
