// Attacks on the shop, along the OWASP API Security Top 10 (2023). Where each item is covered:
//
// API1 Broken object level authorization
//   customers.test.ts   another customer's profile (GET/PUT) is 403
//   addresses.test.ts   another customer's address book is 403, their address ids 404
//   attacks.test.ts     every bearer route with B's id under A's token, B's data unchanged;
//                       no way to review as B (reviewer = token's customer, id fields refused)
// API2 Broken authentication
//   auth.test.ts        missing/unknown/revoked API key; alg none, HS512, tampered signature or
//                       payload, expired, other secret, wrong issuer/audience, missing claims,
//                       non-customer subject, deleted customer; 429 + Retry-After on login
//   customers.test.ts   one 401 for unknown e-mail and wrong password
//   attacks.test.ts     a throttled login refuses even the right password
//   service-kit.test.ts RS256, HS/RS confusion, ES256, "hs256", alg none, expired, future and
//                       non-numeric iat (the suite both services share); unknown-user and
//                       wrong-password logins take the same time (paired timings within 25%)
// API3 Broken object property level authorization
//   customers.test.ts   no password or hash in register/login/profile answers
//   fuzz.test.ts        every fuzzed answer scanned for password hashes, the API key and its
//                       hash, stack traces; 2xx bodies closed by the contract (no extra fields)
//   attacks.test.ts     mass assignment of id, stock, status, role, created_at through every
//                       write body is 400 and changes nothing
// API4 Unrestricted resource consumption
//   service-kit.test.ts 413 over 100 kB, global 429 with Retry-After
//   auth.test.ts        register/login 429 with Retry-After
//   products.test.ts, reviews.test.ts   limit/page caps (limit 51, page 0: 400)
//   service-kit.test.ts slow-loris bodies and headers cut off (408 in the envelope, connection
//                       closed) on a real server with a shortened request timeout
//   attacks.test.ts     101 order lines, 201-character searches and page 100001 are 400
// API5 Broken function level authorization: the shop has no admin functions (operator tasks are
//   CLI commands, cli.test.ts); bearer-only and API-key-only scopes in auth.test.ts
//   attacks.test.ts     database unreachable or cut mid-request: 503 in the envelope (never 500
//                       or a hang), nothing half-written, the next request works (infra/test/
//                       soak.test.ts stops and restarts the real database under load)
// API8 Security misconfiguration: errors never show stacks or SQL (operations.test.ts, fuzz)
// Injection
//   products.test.ts    search text is literal (no SQL, no LIKE wildcards)
//   fuzz.test.ts        SQL/LIKE metacharacters, NUL, unicode in every generated string
//   attacks.test.ts     U+0000 in every string parameter: 400 naming the field (it was a 500)
//   attacks.test.ts     SQL metacharacters in every string parameter of the document (stored
//                       verbatim, nothing delayed or dropped); Mongo operators in every body
//                       field and query key (400)
//   service-kit.test.ts X-Request-Id header injection (raw socket)
// CSV formula injection: the shop exports no CSV (handler-directory/test/attacks.test.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { TEST_API_KEY, createTestApp, testConfig, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';
import { STAFF_PASSWORD, staffMember, type SignedInStaffMember } from './support/staff.js';
import { answerLog, operationsOf, readDocument, type Schema } from '@dogshop/api-fuzz';

const operations = operationsOf(
  readDocument(new URL('../../../openapi/shop.json', import.meta.url)),
);
/** Every answer of the apps below, checked against the document (the last test asserts it). */
const documented = answerLog(operations);

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;
let ann: RegisteredCustomer;
let bob: RegisteredCustomer;
let bobAddressId: number;
let annAddressId: number;
let orderId: number;
let webhookId: number;
let admin: SignedInStaffMember;
let clerk: SignedInStaffMember;
let changingPassword: SignedInStaffMember;
/** The back office's own category and product, which its writes change (the orders use Dog bowl). */
let attackCategoryId: number;
let attackProductId: number;
let bobReviewId: number;

beforeAll(async () => {
  // No delivery worker: the webhooks registered here (public addresses) are never sent to.
  t = await createTestApp({ webhooks: { ...testConfig().webhooks, deliver: false } });
  documented.watch(t.app);
  ids = await seedCatalogue(t.app);
  ann = await registerCustomer(t, { first_name: 'Ann' });
  bob = await registerCustomer(t, { first_name: 'Bob' });
  bobAddressId = (await addAddress(bob, bob.token)).json().data.id;
  annAddressId = (await addAddress(ann, ann.token)).json().data.id;
  orderId = (await t.request({ method: 'POST', url: '/orders', payload: orderOf(1) })).json().data
    .order_id;
  webhookId = (
    await t.request({
      method: 'POST',
      url: '/webhooks',
      payload: { url: 'https://93.184.215.14/attacks', events: ['*'] },
    })
  ).json().data.id;
  admin = await staffMember(t, 'admin');
  clerk = await staffMember(t, 'staff');
  changingPassword = await staffMember(t, 'viewer');
  const asAdmin = { headers: bearer(admin.token) };
  attackCategoryId = (
    await t.app.inject({
      method: 'POST',
      url: '/admin/categories',
      ...asAdmin,
      payload: { name: 'Attack goods' },
    })
  ).json().data.id;
  attackProductId = (
    await t.app.inject({
      method: 'POST',
      url: '/admin/products',
      ...asAdmin,
      payload: { name: 'Attack lead', price: 5, category_id: attackCategoryId, stock: 3 },
    })
  ).json().data.id;
  bobReviewId = (
    await t.app.inject({
      method: 'POST',
      url: `/products/${ids.productId('Dog bowl')}/reviews`,
      headers: { 'x-api-key': TEST_API_KEY, ...bearer(bob.token) },
      payload: { rating: 2, title: 'Too light', comment: 'Tips over when the dog pushes it.' },
    })
  ).json().data.review_id;
});
afterAll(() => t?.close());

const address = {
  first_name: 'Bob',
  last_name: 'Stag',
  address: 'Forest road 1',
  city: 'Celle',
  postal_code: '29221',
  country: 'DE',
};
const addAddress = (owner: RegisteredCustomer, token: string) =>
  t.app.inject({
    method: 'POST',
    url: `/customers/${owner.id}/addresses`,
    headers: bearer(token),
    payload: address,
  });

const orderOf = (quantity: number) => ({
  customer_name: 'Ann Handler',
  customer_email: 'ann@example.com',
  items: [
    { product_id: ids.productId('Dog bowl'), product_name: 'Dog bowl', quantity, price: 9.5 },
  ],
});

/** Everything a write could change, to compare before and after an attack. */
async function snapshot() {
  const db = t.app.db;
  const [customers, orders, items, reviews, addresses, subscribers, stock, history] =
    await Promise.all([
      db.customer.findMany({ orderBy: { id: 'asc' } }),
      db.order.findMany({ orderBy: { id: 'asc' } }),
      db.orderItem.count(),
      db.review.count(),
      db.address.findMany({ orderBy: { id: 'asc' } }),
      db.newsletterSubscriber.findMany({ orderBy: { id: 'asc' } }),
      db.product.findMany({ select: { id: true, stock: true }, orderBy: { id: 'asc' } }),
      db.orderStatusChange.count(),
    ]);
  return { customers, orders, items, reviews, addresses, subscribers, stock, history };
}

/**
 * A valid request for every operation that takes a body, by operationId. The test below checks
 * that this covers every body of the document, so a new write operation cannot be forgotten.
 */
function writeRequests(): Record<
  string,
  {
    method: 'POST' | 'PUT' | 'PATCH';
    url: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
  }
> {
  const key = { 'x-api-key': TEST_API_KEY };
  return {
    loginCustomer: {
      method: 'POST',
      url: '/customers/login',
      headers: key,
      body: { email: ann.email, password: ann.password },
    },
    registerCustomer: {
      method: 'POST',
      url: '/customers/register',
      headers: key,
      body: {
        email: 'new@example.com',
        password: 'a good password',
        first_name: 'N',
        last_name: 'W',
      },
    },
    createCustomerAddress: {
      method: 'POST',
      url: `/customers/${ann.id}/addresses`,
      headers: bearer(ann.token),
      body: { ...address },
    },
    updateCustomerAddress: {
      method: 'PUT',
      url: `/customers/${ann.id}/addresses/${annAddressId}`,
      headers: bearer(ann.token),
      body: { city: 'Uelzen' },
    },
    updateCustomerProfile: {
      method: 'PUT',
      url: `/customers/${ann.id}/profile`,
      headers: bearer(ann.token),
      body: { phone: '+49 1' },
    },
    subscribeNewsletter: {
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: key,
      body: { email: 'news@example.com' },
    },
    unsubscribeNewsletter: {
      method: 'POST',
      url: '/newsletter/unsubscribe',
      headers: key,
      body: { email: 'news@example.com' },
    },
    createOrder: { method: 'POST', url: '/orders', headers: key, body: orderOf(1) },
    updateOrderStatus: {
      method: 'PUT',
      url: `/orders/${orderId}`,
      headers: key,
      body: { status: 'pending' },
    },
    createProductReview: {
      method: 'POST',
      url: `/products/${ids.productId('Dog bowl')}/reviews`,
      headers: bearer(ann.token),
      body: { rating: 4, title: 'Solid bowl', comment: 'Heavy steel, does not tip over.' },
    },
    createWebhook: {
      method: 'POST',
      url: '/webhooks',
      headers: key,
      body: { url: 'https://93.184.215.14/attacks', events: ['*'], description: 'ERP' },
    },
    updateWebhook: {
      method: 'PATCH',
      url: `/webhooks/${webhookId}`,
      headers: key,
      body: { description: 'ERP' },
    },
    staffLogin: {
      method: 'POST',
      url: '/admin/auth/login',
      headers: {},
      body: { email: admin.email, password: STAFF_PASSWORD },
    },
    // A valid body with a wrong current password: a change would end the token these sends use.
    changeStaffPassword: {
      method: 'PUT',
      url: '/admin/auth/password',
      headers: bearer(changingPassword.token),
      body: { current_password: 'not the password', new_password: 'another long passphrase' },
    },
    setStaffPassword: {
      method: 'POST',
      url: '/admin/auth/set-password',
      headers: {},
      body: { token: 'not-a-token-anyone-was-given', password: 'another long passphrase' },
    },
    createStaff: {
      method: 'POST',
      url: '/admin/staff',
      headers: bearer(admin.token),
      body: { email: 'new.clerk@example.com', name: 'New Clerk', role: 'viewer' },
    },
    updateStaff: {
      method: 'PATCH',
      url: `/admin/staff/${clerk.id}`,
      headers: bearer(admin.token),
      body: { name: 'Renamed Clerk' },
    },
    changeAdminOrderStatus: {
      method: 'POST',
      url: `/admin/orders/${orderId}/status`,
      headers: bearer(clerk.token),
      body: { status: 'pending', note: 'checked' },
    },
    addOrderNote: {
      method: 'POST',
      url: `/admin/orders/${orderId}/notes`,
      headers: bearer(clerk.token),
      body: { text: 'Customer called' },
    },
    createApiKey: {
      method: 'POST',
      url: '/admin/api-keys',
      headers: bearer(admin.token),
      body: { type: 'secret', title: 'ERP', scopes: ['orders:read'] },
    },
    createProduct: {
      method: 'POST',
      url: '/admin/products',
      headers: bearer(clerk.token),
      body: { name: 'Lead', description: 'Orange', price: 12.5, category_id: attackCategoryId },
    },
    updateProduct: {
      method: 'PATCH',
      url: `/admin/products/${attackProductId}`,
      headers: bearer(clerk.token),
      body: { name: 'Attack lead', description: 'Orange' },
    },
    adjustStock: {
      method: 'POST',
      url: `/admin/products/${attackProductId}/stock`,
      headers: bearer(clerk.token),
      body: { delta: 1, reason: 'delivery' },
    },
    createCategory: {
      method: 'POST',
      url: '/admin/categories',
      headers: bearer(clerk.token),
      body: { name: 'Harnesses', description: 'For tracking dogs' },
    },
    updateCategory: {
      method: 'PATCH',
      url: `/admin/categories/${attackCategoryId}`,
      headers: bearer(clerk.token),
      body: { description: 'For the attacks' },
    },
    moderateReview: {
      method: 'PATCH',
      url: `/admin/reviews/${bobReviewId}`,
      headers: bearer(clerk.token),
      body: { hidden: true },
    },
  };
}

const bodyOperations = () => operations.filter((op) => op.body);
const send = (r: ReturnType<typeof writeRequests>[string], body: unknown) =>
  t.app.inject({ method: r.method, url: r.url, headers: r.headers, payload: body as object });

describe('API1: object level authorization', () => {
  it("refuses every bearer route with another customer's id, and B's data stays as it was", async () => {
    const before = await snapshot();
    const routes = [
      { method: 'GET', url: `/customers/${bob.id}/profile` },
      { method: 'PUT', url: `/customers/${bob.id}/profile`, payload: { first_name: 'Mallory' } },
      { method: 'POST', url: `/customers/${bob.id}/addresses`, payload: address },
      {
        method: 'PUT',
        url: `/customers/${bob.id}/addresses/${bobAddressId}`,
        payload: { city: 'X' },
      },
      { method: 'DELETE', url: `/customers/${bob.id}/addresses/${bobAddressId}` },
    ] as const;
    for (const route of routes) {
      expectShopError(await t.app.inject({ ...route, headers: bearer(ann.token) }), 403);
    }
    // B's address through A's own path: as if it did not exist.
    for (const route of [
      {
        method: 'PUT',
        url: `/customers/${ann.id}/addresses/${bobAddressId}`,
        payload: { city: 'X' },
      },
      { method: 'DELETE', url: `/customers/${ann.id}/addresses/${bobAddressId}` },
    ] as const) {
      expectShopError(await t.app.inject({ ...route, headers: bearer(ann.token) }), 404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('gives no way to review as another customer: the reviewer is always the token’s customer', async () => {
    const product = ids.productId('Blue lead');
    const review = { rating: 1, title: 'Terrible', comment: 'Written by somebody else.' };
    for (const impersonation of [
      { customer_id: bob.id },
      { customerId: bob.id },
      { first_name: 'Bob', last_name: 'Stag' },
      { reviewer: { id: bob.id } },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/products/${product}/reviews`,
        headers: bearer(ann.token),
        payload: { ...review, ...impersonation },
      });
      expectShopError(res, 400, /unknown field/);
    }
    // An unknown query parameter is refused like an unknown body field (issue 20: one rule).
    const asBob = await t.app.inject({
      method: 'POST',
      url: `/products/${product}/reviews?customer_id=${bob.id}`,
      headers: bearer(ann.token),
      payload: review,
    });
    expectShopError(asBob, 400, /querystring: unknown field 'customer_id'/);
    const res = await t.app.inject({
      method: 'POST',
      url: `/products/${product}/reviews`,
      headers: bearer(ann.token),
      payload: review,
    });
    expect(res.statusCode).toBe(201);
    const rows = await t.app.db.review.findMany({ where: { productId: product } });
    expect(rows.map((r) => r.customerId)).toEqual([ann.id]);
    const listed = await t.request({ method: 'GET', url: `/products/${product}/reviews` });
    expect(listed.json().data.reviews[0]).toMatchObject({ first_name: 'Ann' });
  });
});

describe('API2: authentication', () => {
  it('refuses even the right password once login attempts are throttled', async () => {
    const limited = await createTestApp({ authRateLimitPerMinute: 3 });
    documented.watch(limited.app);
    try {
      const victim = await registerCustomer(limited, { password: 'the right password' });
      const login = (password: string) =>
        limited.request({
          method: 'POST',
          url: '/customers/login',
          payload: { email: victim.email, password },
        });
      for (const guess of ['guess one', 'guess two', 'guess three'])
        expect((await login(guess)).statusCode).toBe(401);
      const res = await login('the right password');
      expectShopError(res, 429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().error).not.toMatch(/token/i);
    } finally {
      await limited.close();
    }
  });
});

describe('API3: property level authorization (mass assignment)', () => {
  it('has a valid request for every operation with a body in the document', () => {
    expect(Object.keys(writeRequests()).sort()).toEqual(
      bodyOperations()
        .map((op) => op.operationId)
        .sort(),
    );
  });

  it('refuses id, stock, status, role and created_at in every write body with 400, changing nothing', async () => {
    const before = await snapshot();
    const requests = writeRequests();
    let attempts = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      const known = Object.keys(op.body!.properties ?? {});
      for (const field of [
        'id',
        'stock',
        'status',
        'role',
        'created_at',
        'password_hash',
        'customer_id',
      ]) {
        if (known.includes(field)) continue;
        const res = await send(request, {
          ...request.body,
          [field]: field === 'status' ? 'delivered' : 1,
        });
        expectShopError(res, 400, new RegExp(`unknown field '${field}'`));
        attempts += 1;
      }
    }
    // Nested: an order line cannot set the stock, the line total or the order's status.
    for (const field of ['stock', 'total_price', 'status', 'id']) {
      const body = orderOf(1);
      const res = await send(requests.createOrder!, {
        ...body,
        items: [{ ...body.items[0], [field]: 0 }],
      });
      expectShopError(res, 400, new RegExp(`unknown field 'items.0.${field}'`));
      attempts += 1;
    }
    expect(attempts).toBeGreaterThan(60);
    expect(await snapshot()).toEqual(before);
  });
});

describe('API4: resource consumption', () => {
  it('refuses 101 order lines, a 201-character search and page 100001 with 400', async () => {
    const lines = Array.from({ length: 101 }, () => orderOf(1).items[0]);
    expectShopError(
      await t.request({ method: 'POST', url: '/orders', payload: { ...orderOf(1), items: lines } }),
      400,
      /items/,
    );
    expectShopError(
      await t.request({ method: 'GET', url: `/products?search=${'a'.repeat(201)}` }),
      400,
      /search/,
    );
    expectShopError(await t.request({ method: 'GET', url: '/products?page=100001' }), 400, /page/);
  });
});

describe('API4: database faults answer 503, not 500', () => {
  it('answers 503 in the envelope at once when the database cannot be reached, /ready included', async () => {
    const app = documented.watch(
      await buildApp({ ...t.config, databaseUrl: 'postgresql://postgres:x@127.0.0.1:1/gone' }),
    );
    try {
      const key = { 'x-api-key': TEST_API_KEY };
      const started = performance.now();
      for (const request of [
        { method: 'GET', url: '/products', headers: key },
        { method: 'POST', url: '/orders', headers: key, payload: orderOf(1) },
        {
          method: 'POST',
          url: '/customers/login',
          headers: key,
          payload: { email: ann.email, password: 'x' },
        },
        { method: 'GET', url: `/customers/${ann.id}/profile`, headers: bearer(ann.token) },
      ] as const) {
        expectShopError(await app.inject(request), 503, /^Service temporarily unavailable$/);
      }
      expect(performance.now() - started).toBeLessThan(5_000);
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect({ status: ready.statusCode, body: ready.json() }).toEqual({
        status: 503,
        body: { status: 'unavailable' },
      });
    } finally {
      await app.close();
    }
  });

  it('answers 503 to an order whose connection is cut mid-transaction, writes none of it, and recovers', async () => {
    const product = ids.productId('Binoculars 8x42');
    const before = await snapshot();
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    try {
      // Hold the product's row, so the order waits inside its transaction on the stock update.
      await admin.query('BEGIN');
      await admin.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [product]);
      const order = t.request({
        method: 'POST',
        url: '/orders',
        payload: {
          ...orderOf(1),
          items: [{ product_id: product, product_name: 'B', quantity: 1, price: 499 }],
        },
      });
      let waiting: number[] = [];
      for (let i = 0; i < 100 && waiting.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const rows = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = rows.rows.map((r) => r.pid);
      }
      expect(waiting).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [waiting[0]]);
      expectShopError(await order, 503, /^Service temporarily unavailable$/);
      await admin.query('ROLLBACK');
    } finally {
      await admin.end();
    }
    expect(await snapshot()).toEqual(before);
    const retry = await t.request({ method: 'POST', url: '/orders', payload: orderOf(1) });
    expect(retry.statusCode).toBe(201);
  });
});

/** Every string field of a body schema (top level and inside arrays of objects), with its path. */
function stringFields(
  schema: Schema,
  prefix: string[] = [],
): Array<{ path: string[]; schema: Schema }> {
  const fields: Array<{ path: string[]; schema: Schema }> = [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const options = child.anyOf ?? [child];
    if (options.some((o) => o.type === 'string' && !o.enum)) {
      fields.push({ path: [...prefix, key], schema: options.find((o) => o.type === 'string')! });
    }
    const items = options.find((o) => o.type === 'array')?.items;
    if (items?.type === 'object') fields.push(...stringFields(items, [...prefix, key, '0']));
  }
  return fields;
}

function withValue(
  body: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(body);
  let cursor: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string, unknown>;
  cursor[path[path.length - 1]!] = value;
  return copy;
}

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE customers; --",
  '" OR ""="',
  "\\'; SELECT pg_sleep(3); --",
  '%_\\ $1 $$x$$ /* */',
];
const SQL_EMAILS = ["o'brien'--@example.com", "x'or'1'='1@example.com"];

describe('injection', () => {
  it('treats SQL metacharacters in every string parameter as text: no 5xx, nothing delayed, stored verbatim', async () => {
    const requests = writeRequests();
    // The back office's writes add products to their own category only.
    const outsideAttackGoods = () =>
      t.app.db.product.count({ where: { categoryId: { not: attackCategoryId } } });
    const productsBefore = await outsideAttackGoods();
    let attempts = 0;
    let echoed = 0;
    let slowest = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      for (const field of stringFields(op.body!)) {
        const payloads = field.schema.format === 'email' ? SQL_EMAILS : SQL;
        for (const [i, raw] of payloads.entries()) {
          const value = raw.padEnd(field.schema.minLength ?? 0, '.');
          let body = withValue(request.body, field.path, value);
          // Each registration needs an address of its own to get as far as the database.
          if (op.operationId === 'registerCustomer' && field.path[0] !== 'email') {
            body = { ...body, email: `sql-${field.path[0]}-${i}@example.com` };
          }
          const started = performance.now();
          const res = await send(request, body);
          slowest = Math.max(slowest, performance.now() - started);
          attempts += 1;
          expect({
            op: op.operationId,
            field: field.path.join('.'),
            status: res.statusCode,
          }).toEqual({
            op: op.operationId,
            field: field.path.join('.'),
            status: res.statusCode < 500 ? res.statusCode : 'no server error',
          });
          // Answers that show the field show it exactly as sent.
          const shown = res.statusCode < 300 ? res.json().data?.[field.path.at(-1)!] : undefined;
          if (typeof shown === 'string') {
            expect(shown).toBe(value);
            echoed += 1;
          }
        }
      }
    }
    for (const param of ['search', 'sort']) {
      for (const value of SQL) {
        const res = await t.request({
          method: 'GET',
          url: `/products?${param}=${encodeURIComponent(value)}`,
        });
        expect(res.statusCode).toBeLessThan(500);
        attempts += 1;
      }
    }
    expect(attempts).toBeGreaterThan(150);
    expect(echoed).toBeGreaterThan(20);
    expect(slowest).toBeLessThan(3_000); // an injected pg_sleep(3) would show here
    expect(await outsideAttackGoods()).toBe(productsBefore);
    // Stored exactly as sent: one order and one account per payload.
    const orders = await t.app.db.order.findMany({ where: { customerName: { in: SQL } } });
    expect(orders.map((o) => o.customerName).sort()).toEqual([...SQL].sort());
    const customers = await t.app.db.customer.findMany({
      where: { firstName: { in: SQL }, email: { startsWith: 'sql-' } },
    });
    expect(customers.map((c) => c.firstName).sort()).toEqual([...SQL].sort());
  });

  it('refuses U+0000 (which PostgreSQL text cannot hold) in every string parameter with 400 naming it', async () => {
    const before = await snapshot();
    const requests = writeRequests();
    let attempts = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      for (const field of stringFields(op.body!)) {
        const res = await send(request, withValue(request.body, field.path, 'a\u0000b'));
        expectShopError(res, 400, new RegExp(`^body\\.${field.path.join('\\.')} must not contain`));
        attempts += 1;
      }
    }
    const search = await t.request({ method: 'GET', url: '/products?search=a%00b' });
    expectShopError(search, 400, /^querystring\.search must not contain the character U\+0000$/);
    expect(attempts).toBeGreaterThan(25);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses Mongo operators in every body field and query key with 400, writing nothing', async () => {
    const before = await snapshot();
    const requests = writeRequests();
    let attempts = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      for (const field of Object.keys(op.body!.properties ?? {})) {
        for (const operator of [{ $ne: null }, { $gt: '' }, { $regex: '.*' }]) {
          expectShopError(await send(request, { ...request.body, [field]: operator }), 400);
          attempts += 1;
        }
      }
      expectShopError(await send(request, { ...request.body, $where: 'sleep(1000)' }), 400);
      expectShopError(await send(request, { $or: [request.body] }), 400);
      attempts += 2;
    }
    for (const query of ['search[$ne]=x', 'category[$gt]=0', '$where=1', 'limit[$gt]=1']) {
      expectShopError(await t.request({ method: 'GET', url: `/products?${query}` }), 400);
      attempts += 1;
    }
    expect(attempts).toBeGreaterThan(100);
    expect(await snapshot()).toEqual(before);
  });
});

describe('the OpenAPI document', () => {
  it('lists every answer above: its status, its body and its headers', () => {
    expect(documented.problems).toEqual([]);
    expect(documented.checked).toBeGreaterThan(500);
  });
});
