import jwt from '@fastify/jwt';
import { forbidden, LoginLimiter, unauthorized } from '@dogshop/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mayWrite, type AdminRole } from '../domain/admin-account.js';
import { MESSAGES } from '../messages.js';
import { findActiveAdmin, type AdminInfo } from '../services/admins.js';

export const JWT_ISSUER = 'dogshop-handler-directory';
export const JWT_AUDIENCE = 'dogshop-handler-directory-admins';

/** Clock difference between servers that a token's `iat` may be ahead by. */
const CLOCK_SKEW_S = 60;

/** A token claiming to be issued later than now (plus skew) was not issued by us: refused. */
const issuedInTheFuture = (iat: unknown) =>
  iat !== undefined &&
  !(typeof iat === 'number' && iat <= Math.floor(Date.now() / 1000) + CLOCK_SKEW_S);

export interface AdminClaims {
  sub: string;
  username: string;
  role: AdminRole;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AdminClaims;
    user: AdminClaims & { iat: number; exp: number };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a valid bearer token of an existing, enabled account, else 401. */
    requireAccount: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook after requireAccount: the account may change the directory, else 403. */
    requireWriteAccess: (request: FastifyRequest) => Promise<void>;
    signAdminToken: (admin: Pick<AdminInfo, 'id' | 'username' | 'role'>) => string;
    /** Failed logins per client address + username and per username (LoginLimiter). */
    loginLimiter: LoginLimiter;
  }
  interface FastifyRequest {
    account: AdminInfo | null;
  }
}

export interface AuthOptions {
  secret: string;
  ttl: string;
  loginMaxFailures: number;
  /** Absent: no per-account limit. */
  accountLoginMaxFailures?: number | undefined;
  loginFailureWindowMs: number;
}

/**
 * Bearer tokens are HS256 only (`none` and every other algorithm are refused) with a fixed issuer
 * and audience that are checked. The account is looked up on every request, so deleting or
 * disabling it ends its tokens at once, and its current role (not the one in the token) decides.
 */
export const auth = fp<AuthOptions>(
  async (app: FastifyInstance, opts) => {
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', iss: JWT_ISSUER, aud: JWT_AUDIENCE, expiresIn: opts.ttl },
      verify: {
        algorithms: ['HS256'],
        allowedIss: JWT_ISSUER,
        allowedAud: JWT_AUDIENCE,
        // allowedIss/allowedAud only check claims that are present; a token without them is refused.
        requiredClaims: ['iss', 'aud', 'sub', 'exp'],
      },
    });

    app.decorateRequest('account', null);
    app.decorate(
      'loginLimiter',
      new LoginLimiter({
        maxFailures: opts.loginMaxFailures,
        accountMaxFailures: opts.accountLoginMaxFailures,
        windowMs: opts.loginFailureWindowMs,
        keyPrefix: 'handler-directory:',
      }),
    );

    app.decorate('requireAccount', async (request: FastifyRequest) => {
      if (!request.headers.authorization) throw unauthorized(MESSAGES.tokenMissing);
      let claims: AdminClaims & { iat?: unknown };
      try {
        claims = await request.jwtVerify<AdminClaims & { iat?: unknown }>();
      } catch {
        throw unauthorized(MESSAGES.tokenInvalid);
      }
      if (issuedInTheFuture(claims.iat)) throw unauthorized(MESSAGES.tokenInvalid);
      const account =
        typeof claims.sub === 'string' ? await findActiveAdmin(app.db, claims.sub) : null;
      if (!account) throw unauthorized(MESSAGES.accountInactive);
      request.account = account;
    });

    app.decorate('requireWriteAccess', async (request: FastifyRequest) => {
      if (!request.account || !mayWrite(request.account.role)) throw forbidden(MESSAGES.forbidden);
    });

    app.decorate('signAdminToken', (admin: Pick<AdminInfo, 'id' | 'username' | 'role'>) =>
      app.jwt.sign({ sub: admin.id, username: admin.username, role: admin.role }),
    );
  },
  { name: 'auth', dependencies: ['database'] },
);
