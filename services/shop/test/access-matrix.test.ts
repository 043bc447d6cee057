// Every operation of the shop × every kind of caller: the answer is the one its declaration
// documents. The operations come from the app's own OpenAPI document, which routeAuth writes from
// each route's `config.auth` (and `config.scope`), so a new route is in this matrix by existing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_KEY_SCOPES, type ApiKeyScope, type StaffRole } from '../src/modules/access/policy.js';
import { createTestApp, type TestApp } from './support/app.js';
import { registerCustomer } from './support/customers.js';
import { keyWith, staffMember } from './support/staff.js';

interface Operation {
  method: string;
  path: string;
  security: Array<Record<string, string[]>>;
  documented: string[];
}

type Caller =
  | { name: string; kind: 'none' }
  | { name: string; kind: 'key'; key: string; publishable: boolean; scopes: ApiKeyScope[] }
  | { name: string; kind: 'staff'; token: string; role: StaffRole }
  | { name: string; kind: 'customer'; token: string };

/** A row id no record has: an operation that passes auth then answers 400 or 404, changing nothing. */
const MISSING_ID = 2_147_483_000;

let t: TestApp;
let operations: Operation[];
let callers: Caller[];
let customerId: number;

beforeAll(async () => {
  t = await createTestApp();
  const document = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, { security?: Operation['security']; responses: object }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        security: op.security ?? [],
        documented: Object.keys(op.responses),
      })),
  );
  const customer = await registerCustomer(t);
  customerId = customer.id;
  const someScopes: ApiKeyScope[] = ['orders:read', 'catalogue:write'];
  const otherScopes = API_KEY_SCOPES.filter((scope) => !someScopes.includes(scope));
  callers = [
    { name: 'no credentials', kind: 'none' },
    {
      name: 'publishable key',
      kind: 'key',
      key: await keyWith(t, { kind: 'publishable' }),
      publishable: true,
      scopes: [],
    },
    {
      name: `secret key with ${someScopes.join(', ')}`,
      kind: 'key',
      key: await keyWith(t, { kind: 'secret', scopes: someScopes }),
      publishable: false,
      scopes: someScopes,
    },
    {
      name: 'secret key with the other scopes',
      kind: 'key',
      key: await keyWith(t, { kind: 'secret', scopes: otherScopes }),
      publishable: false,
      scopes: otherScopes,
    },
    ...(await Promise.all(
      (['admin', 'staff', 'viewer'] as const).map(async (role) => ({
        name: `${role} token`,
        kind: 'staff' as const,
        role,
        token: (await staffMember(t, role)).token,
      })),
    )),
    { name: 'customer token', kind: 'customer', token: customer.token },
  ];
});

afterAll(() => t.close());

/** Whether the caller gets past the operation's auth, by its documented security. */
function admitted(op: Operation, caller: Caller): boolean {
  if (op.security.length === 0) return true;
  return op.security.some((requirement) =>
    Object.entries(requirement).every(([scheme, list]) => {
      switch (scheme) {
        case 'ApiKeyAuth':
          return (
            caller.kind === 'key' &&
            (list.length === 0 ||
              (!caller.publishable && list.every((s) => caller.scopes.includes(s as ApiKeyScope))))
          );
        case 'StaffAuth':
          return caller.kind === 'staff' && (list.length === 0 || list.includes(caller.role));
        case 'BearerAuth':
          return caller.kind === 'customer';
        default:
          throw new Error(`unknown scheme ${scheme}`);
      }
    }),
  );
}

/** A caller refused although the scheme knows it (a key or a staff token of the wrong kind). */
function recognised(op: Operation, caller: Caller): boolean {
  return op.security.some((requirement) =>
    Object.keys(requirement).some(
      (scheme) =>
        (scheme === 'ApiKeyAuth' && caller.kind === 'key') ||
        (scheme === 'StaffAuth' && caller.kind === 'staff'),
    ),
  );
}

const headersOf = (caller: Caller): Record<string, string> => {
  switch (caller.kind) {
    case 'none':
      return {};
    case 'key':
      return { 'x-api-key': caller.key };
    case 'staff':
    case 'customer':
      return { authorization: `Bearer ${caller.token}` };
  }
};

const urlOf = (op: Operation) =>
  op.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    // The customer's own path (its token opens only that), else an id nothing has.
    String(name === 'id' && op.path.startsWith('/customers/') ? customerId : MISSING_ID),
  );

describe('access matrix', () => {
  it('covers the back office and the storefront', () => {
    const paths = operations.map((op) => `${op.method} ${op.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'PUT /orders/{id}',
        'GET /admin/staff',
        'POST /admin/api-keys',
        'GET /customers/{id}/orders',
      ]),
    );
    expect(callers).toHaveLength(8);
  });

  it('answers every operation for every caller as documented', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const caller of callers) {
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: urlOf(op),
          headers: headersOf(caller),
          ...(['GET', 'DELETE'].includes(op.method) ? {} : { payload: {} }),
        });
        const expected = admitted(op, caller) ? 'admitted' : recognised(op, caller) ? 403 : 401;
        const got = res.statusCode === 401 || res.statusCode === 403 ? res.statusCode : 'admitted';
        if (got !== expected || !op.documented.includes(String(res.statusCode))) {
          wrong.push(
            `${op.method} ${op.path} as ${caller.name}: ${res.statusCode} (expected ${expected}) ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
