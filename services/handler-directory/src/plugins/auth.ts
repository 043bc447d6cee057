import {
  bearerTokens,
  forbidden,
  unauthorized,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
// The claims of the directory's tokens are declared on @fastify/jwt's types (registered by bearerTokens).
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { DirectoryConfig } from '../config.js';
import { MESSAGES } from '../messages.js';
import { findActiveAccount, type Account } from '../modules/accounts/service.js';
import { mayWrite, type AccountRole } from '../modules/accounts/rules.js';

export const JWT_ISSUER = 'dogshop-handler-directory';
export const JWT_AUDIENCE = 'dogshop-handler-directory-admins';

export interface AccountClaims {
  sub: string;
  username: string;
  role: AccountRole;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccountClaims;
    user: AccountClaims & { iat: number; exp: number };
  }
}

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
 * The two schemes routes name in `config.auth`. Bearer tokens are HS256 only, with a fixed issuer
 * and audience (service-kit's bearerTokens). The account is looked up on every request, so
 * deleting or disabling it ends its tokens at once, and its current role (not the one in the
 * token) decides. Also signs tokens.
 */
export const auth: ServicePlugin<DirectoryConfig> = fp(
  async (app: FastifyInstance, { config }: ServiceContext<DirectoryConfig>) => {
    await app.register(bearerTokens, {
      secret: config.jwtSecret,
      ttl: config.jwtTtl,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      messages: { missing: MESSAGES.tokenMissing, invalid: MESSAGES.tokenInvalid },
    });

    const account = async (request: FastifyRequest) => {
      const claims = await app.verifyBearerToken(request);
      const found = await findActiveAccount(app.db, claims.sub);
      if (!found) throw unauthorized(MESSAGES.accountInactive);
      request.account = found;
    };

    const admin = async (request: FastifyRequest) => {
      await account(request);
      if (!request.account || !mayWrite(request.account.role)) throw forbidden(MESSAGES.forbidden);
    };

    const security = [{ BearerAuth: [] }];
    app.decorate('authSchemes', {
      account: { check: account, security },
      admin: { check: admin, security },
    });

    app.decorate('signAccountToken', (signed: Pick<Account, 'id' | 'username' | 'role'>) =>
      app.jwt.sign({ sub: signed.id, username: signed.username, role: signed.role }),
    );
  },
  { name: 'auth', dependencies: ['database', 'metrics'] },
);
