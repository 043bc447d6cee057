import {
  LoginLimiter,
  bearerTokens,
  type CounterStore,
  forbidden,
  unauthorized,
  type AuthScheme,
  type Invalidation,
} from '@dogshop/service-kit';
// The claims of the shop's tokens are declared on @fastify/jwt's types (registered by bearerTokens).
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiKeyChecker } from '../modules/api-keys/service.js';
import { accountOf } from '../modules/customers/service.js';

export const JWT_ISSUER = 'dogshop-shop';
export const JWT_AUDIENCE = 'dogshop-shop-customers';

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

/** The signed-in customer of a bearer request. */
export interface SignedInAccount {
  id: number;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shop's auth schemes for `routeAuth`: `apiKey` (X-API-Key) and `customer` (bearer). */
    authSchemes: Record<'apiKey' | 'customer', AuthScheme>;
    signCustomerToken: (customer: { id: number; email: string }) => string;
    /** Failed logins per client address + e-mail and per e-mail (LoginLimiter). */
    loginLimiter: LoginLimiter;
  }
  interface FastifyRequest {
    /** Set by the `customer` scheme; null on other routes. */
    account: SignedInAccount | null;
  }
}

export interface AuthOptions {
  secret: string;
  ttl: string;
  apiKeyCacheMs: number;
  /** SharedState's signal: a revocation on any replica or the CLI empties the API-key cache. */
  invalidation: Invalidation;
  /** Failed logins per client address and e-mail (absent: no such limit). */
  loginMaxFailures?: number | undefined;
  /** Failed logins per e-mail from all addresses (absent: no such limit). */
  accountLoginMaxFailures?: number | undefined;
  /** Default 15 minutes. */
  loginFailureWindowMs?: number | undefined;
  /** Where failures are counted (SharedState's `counters`; default this process's memory). */
  loginCounterStore?: CounterStore | undefined;
}

/**
 * The two schemes of the spec, which routes name in `config.auth`: `apiKey` (a known, unrevoked
 * `X-API-Key`) and `customer` (a bearer token, HS256 with a fixed issuer and audience, of a
 * customer that still exists; `request.account` is that customer). Also signs tokens and keeps
 * the login limiter.
 */
export const auth = fp<AuthOptions>(
  async (app: FastifyInstance, opts) => {
    await app.register(bearerTokens, {
      secret: opts.secret,
      ttl: opts.ttl,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      messages: { missing: 'Missing bearer token', invalid: 'Invalid or expired token' },
    });
    app.decorateRequest('account', null);

    const { isActive: isActiveApiKey, close } = apiKeyChecker(
      app.db,
      opts.apiKeyCacheMs,
      opts.invalidation,
    );
    app.addHook('onClose', async () => close());

    const apiKey = async (request: FastifyRequest) => {
      const key = request.headers['x-api-key'];
      if (typeof key !== 'string' || key.length === 0) throw unauthorized('Missing API key');
      if (key.length > 256 || !(await isActiveApiKey(key))) {
        throw unauthorized('Invalid or revoked API key');
      }
    };

    const customer = async (request: FastifyRequest) => {
      const claims = await app.verifyBearerToken(request);
      const account = await accountOf(app.db, claims.sub);
      if (!account) throw unauthorized('Invalid or expired token');
      request.account = account;
    };

    app.decorate('authSchemes', {
      apiKey: { check: apiKey, security: [{ ApiKeyAuth: [] }] },
      customer: { check: customer, security: [{ BearerAuth: [] }] },
    });

    app.decorate(
      'loginLimiter',
      new LoginLimiter({
        maxFailures: opts.loginMaxFailures ?? Infinity,
        accountMaxFailures: opts.accountLoginMaxFailures,
        windowMs: opts.loginFailureWindowMs ?? 15 * 60_000,
        keyPrefix: 'shop:',
        counters: { failed: app.metrics.loginsFailed, throttled: app.metrics.loginsThrottled },
        store: opts.loginCounterStore,
      }),
    );

    app.decorate('signCustomerToken', (customer: { id: number; email: string }) =>
      app.jwt.sign({ sub: String(customer.id), email: customer.email }),
    );
  },
  { name: 'auth', dependencies: ['database', 'metrics'] },
);

/**
 * preHandler of the routes under `/customers/{id}/…`: a token only opens its own customer's
 * profile and addresses. Runs after validation and before anything is looked up, so a bad id is
 * a 400 and a 403 tells nothing about whether the other customer exists.
 */
export async function ownAccountOnly(request: FastifyRequest): Promise<void> {
  // Every route using this hook declares the integer path parameter `id`.
  const { id } = request.params as { id: number };
  if (id !== request.account?.id) {
    throw forbidden(`path id ${id} is not the customer of the bearer token`);
  }
}

/** The signed-in account of a route declaring `auth: 'customer'` (set by the scheme's check). */
export function signedInAccount(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw unauthorized('Invalid or expired token');
  return request.account;
}
