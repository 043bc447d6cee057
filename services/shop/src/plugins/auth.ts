import jwt from '@fastify/jwt';
import { LoginLimiter, unauthorized } from '@dogshop/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiKeyChecker } from '../services/api-keys.js';

export const JWT_ISSUER = 'dogshop-shop';
export const JWT_AUDIENCE = 'dogshop-shop-customers';

/** Clock difference between servers that a token's `iat` may be ahead by. */
const CLOCK_SKEW_S = 60;

/** A token claiming to be issued later than now (plus skew) was not issued by us: refused. */
const issuedInTheFuture = (iat: unknown) =>
  iat !== undefined &&
  !(typeof iat === 'number' && iat <= Math.floor(Date.now() / 1000) + CLOCK_SKEW_S);

export interface CustomerClaims {
  sub: string;
  email: string;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: CustomerClaims;
    user: CustomerClaims & { iat: number; exp: number };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a known, unrevoked `X-API-Key`, else 401. */
    requireApiKey: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: a valid bearer token of an existing customer, else 401. */
    requireCustomer: (request: FastifyRequest) => Promise<void>;
    signCustomerToken: (customer: { id: number; email: string }) => string;
    /** Failed logins per client address + e-mail and per e-mail (LoginLimiter). */
    loginLimiter: LoginLimiter;
  }
  interface FastifyRequest {
    customerId: number;
  }
}

export interface AuthOptions {
  secret: string;
  ttl: string;
  apiKeyCacheMs: number;
  /** Failed logins per client address and e-mail (absent: no such limit). */
  loginMaxFailures?: number | undefined;
  /** Failed logins per e-mail from all addresses (absent: no such limit). */
  accountLoginMaxFailures?: number | undefined;
  /** Default 15 minutes. */
  loginFailureWindowMs?: number | undefined;
}

/**
 * The two schemes of the spec. JWTs are HS256 only (every other algorithm, `none` included, is
 * refused), carry a fixed issuer and audience that are checked, and name an existing customer.
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
        // allowedIss/allowedAud only check claims that are present; require them (and exp).
        requiredClaims: ['iss', 'aud', 'sub', 'exp'],
      },
    });

    app.decorateRequest('customerId', 0);

    const isActiveApiKey = apiKeyChecker(app.db, opts.apiKeyCacheMs);

    app.decorate('requireApiKey', async (request: FastifyRequest) => {
      const key = request.headers['x-api-key'];
      if (typeof key !== 'string' || key.length === 0) throw unauthorized('Missing API key');
      if (key.length > 256 || !(await isActiveApiKey(key))) {
        throw unauthorized('Invalid or revoked API key');
      }
    });

    app.decorate('requireCustomer', async (request: FastifyRequest) => {
      if (!request.headers.authorization) throw unauthorized('Missing bearer token');
      let claims: CustomerClaims & { iat?: unknown };
      try {
        claims = await request.jwtVerify<CustomerClaims & { iat?: unknown }>();
      } catch {
        throw unauthorized('Invalid or expired token');
      }
      if (issuedInTheFuture(claims.iat)) throw unauthorized('Invalid or expired token');
      const id = Number(claims.sub);
      const exists =
        Number.isSafeInteger(id) &&
        id > 0 &&
        (await app.db.customer.findUnique({ where: { id }, select: { id: true } })) !== null;
      if (!exists) throw unauthorized('Invalid or expired token');
      request.customerId = id;
    });

    app.decorate(
      'loginLimiter',
      new LoginLimiter({
        maxFailures: opts.loginMaxFailures ?? Infinity,
        accountMaxFailures: opts.accountLoginMaxFailures,
        windowMs: opts.loginFailureWindowMs ?? 15 * 60_000,
        keyPrefix: 'shop:',
      }),
    );

    app.decorate('signCustomerToken', (customer: { id: number; email: string }) =>
      app.jwt.sign({ sub: String(customer.id), email: customer.email }),
    );
  },
  { name: 'auth', dependencies: ['database'] },
);
