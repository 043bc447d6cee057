import { SuccessMessageSchema, documented } from '@dogshop/contracts/common';
import {
  EXAMPLE_TOKEN,
  AddressParamsSchema,
  AddressResponseSchema,
  AuthResponseSchema,
  CreateAddressBodySchema,
  IdParamsSchema,
  LoginBodySchema,
  ProfileResponseSchema,
  RegisterBodySchema,
  UpdateAddressBodySchema,
  UpdateProfileBodySchema,
  addressExample,
  profileExample,
  type AuthResponse,
} from '@dogshop/contracts/shop';
import { forbidden } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAddress, deleteAddress, updateAddress } from '../../services/addresses.js';
import {
  getProfile,
  login,
  registerCustomer,
  updateProfile,
  type Account,
} from '../../services/customers.js';
import type { RouteOptions } from '../index.js';
import { bearerSecurity, errorResponses, type ErrorResponseSpec } from '../responses.js';

const authExample = (message: string): AuthResponse => ({
  success: true,
  data: {
    customer_id: 7,
    email: 'jana.johannsen@example.com',
    first_name: 'Jana',
    last_name: 'Johannsen',
    token: EXAMPLE_TOKEN,
  },
  message,
});

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

/** Register and login (API key scope), each with a stricter per-client rate limit against guessing. */
export const customerAccountRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, opts) => {
  const authRateLimit = { rateLimit: { max: opts.authRateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    '/customers/register',
    {
      config: authRateLimit,
      schema: {
        tags: ['Customers'],
        operationId: 'registerCustomer',
        summary: 'Register a customer account',
        description:
          'Creates the account and logs it in (the answer carries a bearer token). The e-mail address is trimmed and lower-cased; passwords are 8 to 128 characters. `newsletter: true` also subscribes the address.',
        body: documented(RegisterBodySchema, {
          examples: [
            {
              email: 'Jana.Johannsen@example.com',
              password: 'correct horse battery',
              first_name: 'Jana',
              last_name: 'Johannsen',
              phone: '+49 4131 123456',
              newsletter: true,
            },
          ],
        }),
        response: {
          201: documented(AuthResponseSchema, {
            description: 'The account was created and is logged in',
            examples: [authExample('Customer registered')],
          }),
          ...errorResponses(
            [400, 'body.password must NOT have fewer than 8 characters'],
            401,
            [
              409,
              'email jana.johannsen@example.com is already registered',
              'The e-mail address is already registered',
            ],
            429,
          ),
        },
      },
    },
    async (request, reply) => {
      const account = await registerCustomer(app.db, request.body);
      return reply.code(201).send(authResponse(app, account, 'Customer registered'));
    },
  );

  app.post(
    '/customers/login',
    {
      config: authRateLimit,
      schema: {
        tags: ['Customers'],
        operationId: 'loginCustomer',
        summary: 'Log in and get a bearer token',
        description:
          'An unknown e-mail address and a wrong password get the same 401 (the API key being valid). After repeated failures for the same e-mail address from the same client, or many from any clients, further attempts answer 429 with `Retry-After` until the window ends, without checking the password.',
        body: documented(LoginBodySchema, {
          examples: [{ email: 'jana.johannsen@example.com', password: 'correct horse battery' }],
        }),
        response: {
          200: documented(AuthResponseSchema, {
            description: 'Logged in; `data.token` is the bearer token',
            examples: [authExample('Login successful')],
          }),
          ...errorResponses(
            [400, 'body.email must match format "email"'],
            [
              401,
              'Invalid email or password',
              'Unknown e-mail address or wrong password (same answer for both), or a missing or invalid API key',
            ],
            [
              429,
              'Too many failed logins, retry in 840 seconds',
              'Too many failed logins for this e-mail address from this client or from all clients, or too many requests: retry after `Retry-After` seconds',
            ],
          ),
        },
      },
    },
    async (request) => {
      const { email, password } = request.body;
      const account = await login(app.db, app.loginLimiter, request.ip, email, password);
      return authResponse(app, account, 'Login successful');
    },
  );
};

/**
 * preHandler: a token only opens its own customer's profile. Runs before anything is looked up,
 * so a 403 tells nothing about whether the other customer exists.
 */
async function ownProfileOnly(request: FastifyRequest): Promise<void> {
  // Every route using this hook declares the integer path parameter `id`.
  const { id } = request.params as { id: number };
  if (id !== request.customerId) {
    throw forbidden(`path id ${id} is not the customer of the bearer token`);
  }
}

const profileErrors = (...specs: ErrorResponseSpec[]) =>
  errorResponses(
    [400, 'params.id must be >= 1'],
    [401, 'Invalid or expired token', 'Missing, invalid or expired bearer token'],
    403,
    ...specs,
    429,
  );
const customerNotFound: ErrorResponseSpec = [404, 'Customer 7 not found', 'No such customer'];
const addressNotFound: ErrorResponseSpec = [
  404,
  'Address 4 not found',
  "No such customer, or the address is not one of the customer's",
];
const tooManyAddresses: ErrorResponseSpec = [
  409,
  'A customer can keep at most 20 addresses; delete one first',
  'The customer already has 20 addresses',
];

/** Profile and address book (bearer scope; the token's customer must be the one in the path). */
export const customerProfileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customers/:id/profile',
    {
      preHandler: ownProfileOnly,
      schema: {
        tags: ['Customers'],
        operationId: 'getCustomerProfile',
        summary: "The bearer's profile with addresses",
        description:
          'Addresses: the default first, then in the order they were added. 403 for another customer.',
        security: bearerSecurity,
        params: IdParamsSchema,
        response: {
          200: documented(ProfileResponseSchema, {
            description: 'The profile',
            examples: [{ success: true, data: profileExample }],
          }),
          ...profileErrors(customerNotFound),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getProfile(app.db, request.params.id),
    }),
  );

  app.put(
    '/customers/:id/profile',
    {
      preHandler: ownProfileOnly,
      schema: {
        tags: ['Customers'],
        operationId: 'updateCustomerProfile',
        summary: "Change the bearer's profile",
        description:
          'Only the fields sent change. `newsletter` subscribes (or re-activates) or unsubscribes the account address in the same transaction.',
        security: bearerSecurity,
        params: IdParamsSchema,
        body: documented(UpdateProfileBodySchema, {
          examples: [{ phone: '+49 170 5550123', newsletter: false }],
        }),
        response: {
          200: documented(SuccessMessageSchema, {
            description: 'The profile was changed',
            examples: [{ success: true, message: 'Profile updated' }],
          }),
          ...profileErrors(customerNotFound),
        },
      },
    },
    async (request) => {
      await updateProfile(app.db, request.params.id, request.body);
      return { success: true as const, message: 'Profile updated' };
    },
  );

  app.post(
    '/customers/:id/addresses',
    {
      preHandler: ownProfileOnly,
      schema: {
        tags: ['Customers'],
        operationId: 'createCustomerAddress',
        summary: 'Add an address (extension)',
        description:
          'At most 20 addresses per customer (409 beyond). `is_default: true` makes it the only default address.',
        security: bearerSecurity,
        params: IdParamsSchema,
        body: documented(CreateAddressBodySchema, {
          examples: [
            {
              first_name: 'Jana',
              last_name: 'Johannsen',
              address: 'Forstweg 3',
              city: 'Lüneburg',
              postal_code: '21335',
              country: 'Germany',
              phone: '+49 4131 123456',
              is_default: true,
            },
          ],
        }),
        response: {
          201: documented(AddressResponseSchema, {
            description: 'The address was added',
            examples: [{ success: true, data: addressExample, message: 'Address added' }],
          }),
          ...profileErrors(customerNotFound, tooManyAddresses),
        },
      },
    },
    async (request, reply) => {
      const address = await createAddress(app.db, request.params.id, request.body);
      return reply
        .code(201)
        .send({ success: true as const, data: address, message: 'Address added' });
    },
  );

  app.put(
    '/customers/:id/addresses/:addressId',
    {
      preHandler: ownProfileOnly,
      schema: {
        tags: ['Customers'],
        operationId: 'updateCustomerAddress',
        summary: 'Change an address (extension)',
        description:
          "Only the fields sent change. `is_default: true` clears the other default. Another customer's address is 404.",
        security: bearerSecurity,
        params: AddressParamsSchema,
        body: documented(UpdateAddressBodySchema, {
          examples: [{ address: 'Heideweg 12', is_default: true }],
        }),
        response: {
          200: documented(AddressResponseSchema, {
            description: 'The changed address',
            examples: [
              {
                success: true,
                data: { ...addressExample, address: 'Heideweg 12' },
                message: 'Address updated',
              },
            ],
          }),
          ...profileErrors(addressNotFound, [
            409,
            'Another default address was set at the same time; retry',
            'A concurrent request set another default address; retry',
          ]),
        },
      },
    },
    async (request) => {
      const { id, addressId } = request.params;
      const address = await updateAddress(app.db, id, addressId, request.body);
      return { success: true as const, data: address, message: 'Address updated' };
    },
  );

  app.delete(
    '/customers/:id/addresses/:addressId',
    {
      preHandler: ownProfileOnly,
      schema: {
        tags: ['Customers'],
        operationId: 'deleteCustomerAddress',
        summary: 'Delete an address (extension)',
        description:
          "Deleting the default address leaves no default. Another customer's address is 404.",
        security: bearerSecurity,
        params: AddressParamsSchema,
        response: {
          200: documented(SuccessMessageSchema, {
            description: 'The address was deleted',
            examples: [{ success: true, message: 'Address deleted' }],
          }),
          ...profileErrors(addressNotFound),
        },
      },
    },
    async (request) => {
      await deleteAddress(app.db, request.params.id, request.params.addressId);
      return { success: true as const, message: 'Address deleted' };
    },
  );
};
