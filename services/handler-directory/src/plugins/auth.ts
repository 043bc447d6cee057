import {
  LoginLimiter,
  bearerTokens,
  forbidden,
  unauthorized,
  type AuthScheme,
  type CounterStore,
} from '@dogshop/service-kit';
// The claims of the directory's tokens are declared on @fastify/jwt's types (registered by bearerTokens).
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
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
    /**
     * The directory's auth schemes for `routeAuth`: `account` (a bearer token of an existing,
     * enabled account) and `admin` (the same, and the account may change the directory).
     */
    authSchemes: Record<'account' | 'admin', AuthScheme>;
    signAccountToken: (account: Pick<Account, 'id' | 'username' | 'role'>) => string;
    /** Failed logins per client address + username and per username (LoginLimiter). */
    loginLimiter: LoginLimiter;
  }
  interface FastifyRequest {
    /** Set by the `account` and `admin` schemes; null on other routes. */
    account: Account | null;
  }
}

export interface AuthOptions {
  secret: string;
  ttl: string;
  loginMaxFailures: number;
  /** Absent: no per-account limit. */
  accountLoginMaxFailures?: number | undefined;
  loginFailureWindowMs: number;
  /** Where failures are counted (SharedState's `counters`; default this process's memory). */
  loginCounterStore?: CounterStore | undefined;
}

/**
 * The two schemes routes name in `config.auth`. Bearer tokens are HS256 only, with a fixed issuer
 * and audience (service-kit's bearerTokens). The account is looked up on every request, so
 * deleting or disabling it ends its tokens at once, and its current role (not the one in the
 * token) decides. Also signs tokens and keeps the login limiter.
 */
export const auth = fp<AuthOptions>(
  async (app: FastifyInstance, opts) => {
    await app.register(bearerTokens, {
      secret: opts.secret,
      ttl: opts.ttl,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      messages: { missing: MESSAGES.tokenMissing, invalid: MESSAGES.tokenInvalid },
    });
    app.decorateRequest('account', null);

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

    app.decorate(
      'loginLimiter',
      new LoginLimiter({
        maxFailures: opts.loginMaxFailures,
        accountMaxFailures: opts.accountLoginMaxFailures,
        windowMs: opts.loginFailureWindowMs,
        keyPrefix: 'handler-directory:',
        counters: { failed: app.metrics.loginsFailed, throttled: app.metrics.loginsThrottled },
        store: opts.loginCounterStore,
        // A store that cannot be reached fails closed: 503 with Retry-After.
        unavailableMessage: MESSAGES.unavailable,
      }),
    );

    app.decorate('signAccountToken', (signed: Pick<Account, 'id' | 'username' | 'role'>) =>
      app.jwt.sign({ sub: signed.id, username: signed.username, role: signed.role }),
    );
  },
  { name: 'auth', dependencies: ['database', 'metrics'] },
);
