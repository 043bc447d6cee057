import {
  forbidden,
  signedInAccountCheck,
  unauthorized,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
// app.jwt (registered by service-kit's bearerTokens) is typed by @fastify/jwt's declarations.
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { apiKeyChecker } from '../modules/api-keys/service.js';
import { accountOf } from '../modules/customers/service.js';

/** Issuer and audience of the customers' tokens (service-kit's bearerTokens checks both). */
export const JWT_ISSUER = 'dogshop-shop';
export const JWT_AUDIENCE = 'dogshop-shop-customers';

/** The signed-in customer of a bearer request (`request.account`). */
export interface SignedInCustomer {
  id: number;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    signCustomerToken: (customer: SignedInCustomer) => string;
  }
}

declare module '@dogshop/service-kit' {
  interface AccountRegistry {
    account: SignedInCustomer;
  }
}

/**
 * The two schemes of the spec, which routes name in `config.auth`: `apiKey` (a known, unrevoked
 * `X-API-Key`) and `customer` (a bearer token of a customer that still exists; `request.account`
 * is that customer). Also signs the customers' tokens (`sub` is the customer id).
 */
export const auth: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config, shared }: ServiceContext<ShopConfig>) => {
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
    const customer = signedInAccountCheck(
      app,
      (id) => accountOf(app.db, id),
      'Invalid or expired token',
    );

    app.decorate('authSchemes', {
      apiKey: { check: apiKey, security: [{ ApiKeyAuth: [] }] },
      customer: { check: customer, security: [{ BearerAuth: [] }] },
    });
    app.decorate('signCustomerToken', ({ id, email }: SignedInCustomer) =>
      app.jwt.sign({ sub: String(id), email }),
    );
  },
  { name: 'auth', dependencies: ['database', 'bearer-tokens'] },
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
