import {
  getCustomerProfileOperation,
  listCustomerOrdersOperation,
  loginCustomerOperation,
  registerCustomerOperation,
  updateCustomerProfileOperation,
  type AuthResponse,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  getProfile,
  login,
  registerCustomer,
  updateProfile,
  type Account,
} from '../../modules/customers/service.js';
import { listCustomerOrders } from '../../modules/orders/service.js';
import { ownAccountOnly } from '../../plugins/auth.js';

export interface CustomerRouteOptions {
  /** Register and login: requests per client and minute, stricter against guessing. */
  authRateLimitPerMinute: number;
}

function authResponse(app: FastifyInstance, account: Account, message: string): AuthResponse {
  return {
    success: true,
    data: {
      customer_id: account.id,
      email: account.email,
      first_name: account.firstName,
      last_name: account.lastName,
      token: app.signCustomerToken(account),
    },
    message,
  };
}

/** Register and login (API key), the profile (the customer's own bearer token). */
export const customerRoutes: FastifyPluginAsyncTypebox<CustomerRouteOptions> = async (
  app,
  opts,
) => {
  const signIn = {
    auth: 'apiKey',
    personal: true,
    normalize: { email: ['email'] },
    rateLimit: { max: opts.authRateLimitPerMinute, timeWindow: 60_000 },
  } as const;
  const ownProfile = { auth: 'customer', personal: true } as const;

  app.post(
    '/customers/register',
    { schema: registerCustomerOperation, config: signIn },
    async (request, reply) => {
      const account = await registerCustomer(app.db, request.body);
      return reply.code(201).send(authResponse(app, account, 'Customer registered'));
    },
  );

  app.post(
    '/customers/login',
    { schema: loginCustomerOperation, config: signIn },
    async (request) => {
      const { email, password } = request.body;
      const account = await login(app.db, app.loginLimiter, request.ip, email, password);
      return authResponse(app, account, 'Login successful');
    },
  );

  app.get(
    '/customers/:id/profile',
    { schema: getCustomerProfileOperation, config: ownProfile, preHandler: ownAccountOnly },
    async (request) => ({
      success: true as const,
      data: await getProfile(app.db, request.params.id),
    }),
  );

  app.put(
    '/customers/:id/profile',
    { schema: updateCustomerProfileOperation, config: ownProfile, preHandler: ownAccountOnly },
    async (request) => {
      await updateProfile(app.db, request.params.id, request.body);
      return { success: true as const, message: 'Profile updated' };
    },
  );

  app.get(
    '/customers/:id/orders',
    { schema: listCustomerOrdersOperation, config: ownProfile, preHandler: ownAccountOnly },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await listCustomerOrders(app.db, request.params.id, { limit, cursor });
      return {
        success: true as const,
        data: page.orders,
        pagination: { limit, next_cursor: page.nextCursor },
      };
    },
  );
};
