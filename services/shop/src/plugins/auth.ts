import {
  forbidden,
  signedInAccountCheck,
  unauthorized,
  type DeclaredRoute,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
// app.jwt (registered by service-kit's bearerTokens) is typed by @fastify/jwt's declarations.
import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import {
  isApiKeyScope,
  isRead,
  roleAllows,
  rolesAllowing,
  type ApiKeyScope,
} from '../modules/access/policy.js';
import { apiKeyChecker, type ActiveKey } from '../modules/api-keys/service.js';
import type { Actor } from '../modules/audit/actor.js';
import { accountOf } from '../modules/customers/service.js';
import { staffActor, staffOf, type SignedInStaff } from '../modules/staff/service.js';

/** Issuer of every token, and the audiences of the customers' and the staff's. */
export const JWT_ISSUER = 'dogshop-shop';
export const JWT_AUDIENCE = 'dogshop-shop-customers';
export const STAFF_JWT_AUDIENCE = 'dogshop-shop-staff';

/** The signed-in customer of a bearer request (`request.account` with `kind: 'customer'`). */
export interface SignedInCustomer {
  kind: 'customer';
  id: number;
  email: string;
}

export type { SignedInStaff };

declare module 'fastify' {
  interface FastifyInstance {
    signCustomerToken: (customer: Pick<SignedInCustomer, 'id' | 'email'>) => string;
    signStaffToken: (staff: Pick<SignedInStaff, 'id' | 'role' | 'tokenVersion'>) => string;
  }
  interface FastifyRequest {
    /** The request's API key, once a scheme checked it (null: none checked, or a staff token). */
    apiKey: ActiveKey | null;
  }
  interface FastifyContextConfig {
    /** What a `scoped` route needs: a secret key with this scope, or a staff role granting it. */
    scope?: ApiKeyScope;
  }
}

declare module '@dogshop/service-kit' {
  interface AccountRegistry {
    account: SignedInCustomer | SignedInStaff;
  }
}

const TOKEN_INVALID = 'Invalid or expired token';

/**
 * The schemes routes name in `config.auth`:
 * - `apiKey`: any known, unrevoked `X-API-Key`, publishable or secret (the storefront's
 *   operations); `request.apiKey` is the key;
 * - `customer`: a customer's bearer token (a customer that still exists); `request.account`;
 * - `apiKeyOptionalCustomer`: `apiKey`, and a customer's token beside it when one is sent (a
 *   storefront placing or reading an order for a signed-in customer; an invalid token is 401);
 * - `staff`: a staff account's bearer token, any role (its own session and password);
 * - `scoped`: the route's `config.scope` — a staff token whose role grants it (modules/access),
 *   or else a secret key carrying it. A publishable key, a key without the scope or a role
 *   without it is 403; a customer's token is no staff token (401).
 * Tokens of customers and staff have different audiences, so neither opens the other's routes.
 * Also signs both kinds of token.
 */
export const auth: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config, shared }: ServiceContext<ShopConfig>) => {
    const { activeKey, close } = apiKeyChecker(app.db, config.apiKeyCacheMs, shared.invalidation);
    app.addHook('onClose', async () => close());
    app.decorateRequest('apiKey', null);

    const apiKey = async (request: FastifyRequest): Promise<ActiveKey> => {
      const key = request.headers['x-api-key'];
      if (typeof key !== 'string' || key.length === 0) throw unauthorized('Missing API key');
      const found = key.length > 256 ? null : await activeKey(key);
      if (!found) throw unauthorized('Invalid or revoked API key');
      request.apiKey = found;
      return found;
    };
    const customer = signedInAccountCheck(
      app,
      async (id) => {
        const found = await accountOf(app.db, id);
        return found && { kind: 'customer' as const, ...found };
      },
      TOKEN_INVALID,
    );
    const staff = signedInAccountCheck(
      app,
      (id) => staffOf(app.db, id),
      TOKEN_INVALID,
      'This session has ended: the password was changed',
      STAFF_JWT_AUDIENCE,
    );
    const scoped = async (request: FastifyRequest) => {
      const scope = declaredScope(request.routeOptions.config);
      if (request.headers.authorization !== undefined) {
        await staff(request);
        const { role } = request.account as SignedInStaff;
        if (!roleAllows(role, scope, isRead(request.method))) {
          throw forbidden(
            `the ${role} role may not ${isRead(request.method) ? 'read' : 'change'} this (${scope})`,
          );
        }
        return;
      }
      const key = await apiKey(request);
      if (key.kind === 'publishable') {
        throw forbidden(
          `a publishable key cannot open this operation: it needs a secret key with the scope ${scope}`,
        );
      }
      if (!key.scopes.includes(scope)) throw forbidden(`this API key lacks the scope ${scope}`);
    };

    app.decorate('authSchemes', {
      apiKey: {
        check: async (request) => void (await apiKey(request)),
        security: [{ ApiKeyAuth: [] }],
        describe: () => 'any API key, publishable (a storefront’s) or secret.',
      },
      apiKeyOptionalCustomer: {
        check: async (request) => {
          await apiKey(request);
          if (request.headers.authorization !== undefined) await customer(request);
        },
        security: [{ ApiKeyAuth: [] }, { ApiKeyAuth: [], BearerAuth: [] }],
        describe: () =>
          'any API key, publishable or secret; a customer’s token beside it acts for that customer.',
      },
      customer: {
        check: customer,
        security: [{ BearerAuth: [] }],
        describe: () => 'the customer’s own token.',
      },
      staff: {
        check: staff,
        security: [{ StaffAuth: [] }],
        describe: () => 'a staff token of any role.',
      },
      scoped: {
        check: scoped,
        mayForbid: true,
        security: (route): Array<Record<string, string[]>> => {
          const scope = declaredScope(route.config);
          return [{ ApiKeyAuth: [scope] }, { StaffAuth: staffRoles(route, scope) }];
        },
        describe: (route) => {
          const scope = declaredScope(route.config);
          return `a secret key with the scope \`${scope}\`, or a staff token of the role ${staffRoles(route, scope).join(' or ')}. A publishable key is refused (403).`;
        },
      },
    });
    app.decorate('signCustomerToken', ({ id, email }: Pick<SignedInCustomer, 'id' | 'email'>) =>
      app.jwt.sign({ sub: String(id), email }),
    );
    app.decorate(
      'signStaffToken',
      ({ id, role, tokenVersion }: Pick<SignedInStaff, 'id' | 'role' | 'tokenVersion'>) =>
        app.jwt.sign(
          { sub: String(id), role, ver: tokenVersion },
          { aud: STAFF_JWT_AUDIENCE, expiresIn: config.staffJwtTtl },
        ),
    );
  },
  { name: 'auth', dependencies: ['database', 'bearer-tokens'] },
);

/** A `scoped` route's scope; a route without a valid one fails at start-up (its documentation). */
function declaredScope(config: DeclaredRoute['config']): ApiKeyScope {
  const { scope } = config;
  if (scope === undefined || !isApiKeyScope(scope)) {
    throw new Error(`a route with auth 'scoped' must declare config.scope (got ${String(scope)})`);
  }
  return scope;
}

const staffRoles = (route: DeclaredRoute, scope: ApiKeyScope) =>
  rolesAllowing(scope, [route.method].flat().every(isRead));

/**
 * preHandler of the routes under `/customers/{id}/…`: a token only opens its own customer's
 * profile and addresses. Runs after validation and before anything is looked up, so a bad id is
 * a 400 and a 403 tells nothing about whether the other customer exists.
 */
export async function ownAccountOnly(request: FastifyRequest): Promise<void> {
  // Every route using this hook declares the integer path parameter `id`.
  const { id } = request.params as { id: number };
  if (id !== signedInAccount(request).id) {
    throw forbidden(`path id ${id} is not the customer of the bearer token`);
  }
}

/** The signed-in customer of a route declaring `auth: 'customer'` (set by the scheme's check). */
export function signedInAccount(request: FastifyRequest): SignedInCustomer {
  const account = request.account;
  if (account?.kind !== 'customer') throw unauthorized(TOKEN_INVALID);
  return account;
}

/** The customer beside the key on `apiKeyOptionalCustomer` routes, else null. */
export const optionalCustomer = (request: FastifyRequest): SignedInCustomer | null =>
  request.account?.kind === 'customer' ? request.account : null;

/** The signed-in staff member of a route declaring `auth: 'staff'`. */
export function signedInStaff(request: FastifyRequest): SignedInStaff {
  const account = request.account;
  if (account?.kind !== 'staff') throw unauthorized(TOKEN_INVALID);
  return account;
}

/**
 * Who made a back-office request (`scoped` or `staff` routes): the staff member, or else the
 * secret key, for the audit and the order timeline.
 */
export function actorOf(request: FastifyRequest): Actor {
  const account = request.account;
  if (account?.kind === 'staff') return staffActor(account);
  if (request.apiKey) return { type: 'api_key', id: request.apiKey.id, name: request.apiKey.name };
  throw new Error('actorOf: a route without a staff token or an API key');
}
