import {
  bearerTokens,
  forbidden,
  unauthorized,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
// The claims of the shop's tokens are declared on @fastify/jwt's types (registered by bearerTokens).
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiKeyChecker } from '../modules/api-keys/service.js';
import type { ShopConfig } from '../config.js';
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

/** The signed-in customer of a bearer request (`request.account`). */
export interface SignedInCustomer {
  id: number;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    signCustomerToken: (customer: { id: number; email: string }) => string;
  }
}

declare module '@dogshop/service-kit' {
  interface AccountRegistry {
    account: SignedInCustomer;
  }
}

/**
 * The two schemes of the spec, which routes name in `config.auth`: `apiKey` (a known, unrevoked
 * `X-API-Key`) and `customer` (a bearer token, HS256 with a fixed issuer and audience, of a
 * customer that still exists; `request.account` is that customer). Also signs tokens.
 */
export const auth: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config, shared }: ServiceContext<ShopConfig>) => {
    await app.register(bearerTokens, {
      secret: config.jwtSecret,
      ttl: config.jwtTtl,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      messages: { missing: 'Missing bearer token', invalid: 'Invalid or expired token' },
    });

    const { isActive: isActiveApiKey, close } = apiKeyChecker(
      app.db,
      config.apiKeyCacheMs,
      shared.invalidation,
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
export function signedInAccount(request: FastifyRequest): SignedInCustomer {
  if (!request.account) throw unauthorized('Invalid or expired token');
  return request.account;
}
