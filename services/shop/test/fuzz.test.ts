// Property-based fuzzing of every operation in openapi/shop.json (see packages/api-fuzz):
// 2,000 generated requests or more at full scale (a quarter in `pnpm test`: FUZZ_SCALE;
// `pnpm bench --only L-FUZZ` sends them all), seeded (FUZZ_SEED reproduces a run), valid and
// mutated. Never a 5xx; every 4xx in the error envelope; every 2xx valid against the document;
// no response carries a password hash, an API key or its hash, or a stack trace.
import { afterAll, beforeAll } from '@jest/globals';
import fc from 'fast-check';
import { hashApiKey } from '../src/modules/api-keys/service.js';
import { createStaff } from '../src/modules/staff/service.js';
import { TEST_API_KEY, createTestApp, testConfig, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { credentialsFor } from './support/credentials.js';
import { registerCustomer, type RegisteredCustomer } from './support/customers.js';
import { STAFF_PASSWORD, staffMember } from './support/staff.js';
import {
  contractChecker,
  describeFuzzing,
  operationsOf,
  readDocument,
  type Answer,
  type ContractChecker,
  type GeneratedRequest,
  type Hint,
  type Operation,
} from '@dogshop/api-fuzz';

const operations = operationsOf(
  readDocument(new URL('../../../openapi/shop.json', import.meta.url)),
);

/** Runs per operation; register and login hash passwords, so they get fewer. */
const runsOf = (op: Operation) =>
  [
    'registerCustomer',
    'loginCustomer',
    'staffLogin',
    'changeStaffPassword',
    'setStaffPassword',
  ].includes(op.operationId)
    ? 60
    : ['getHealth', 'getReadiness'].includes(op.operationId)
      ? 10
      : 125;

let t: TestApp;
let customer: RegisteredCustomer;
const world = {
  products: [] as Array<{ id: number; name: string; price: number; active: boolean }>,
  categoryIds: [] as number[],
  orderIds: [] as number[],
  addressIds: [] as number[],
  subscribed: [] as string[],
  webhookIds: [] as number[],
  deliveryIds: [] as number[],
  /** The fuzzer's own admin: its password and token follow each password change it makes. */
  staff: { email: '', password: STAFF_PASSWORD, token: '' },
  /** Accounts made for the fuzzer to change (never its own admin) and their one-time tokens. */
  staffIds: [] as number[],
  setPasswordTokens: [] as string[],
  /** Keys the fuzzer made, the only ones it may revoke (not the test key it works with). */
  apiKeyIds: [] as number[],
  /** Cursors the order list gave, so that generated pages can follow one. */
  orderCursors: [] as string[],
  /** Products the back office's operations change (price, stock, active), never the ones ordered. */
  backOfficeProductIds: [] as number[],
  /** Reviews, for the back office's moderation, and the cursors of its other lists. */
  reviewIds: [] as number[],
  listCursors: {} as Record<string, string[]>,
};
let checker: ContractChecker;

beforeAll(async () => {
  // No delivery worker: the webhooks the fuzzer registers (public addresses) are never sent to.
  t = await createTestApp({ webhooks: { ...testConfig().webhooks, deliver: false } });
  await seedCatalogue(t.app);
  // Orders must not run out of stock: the fuzzer orders a lot.
  await t.app.db.product.updateMany({ data: { stock: 1_000_000 } });
  const products = await t.app.db.product.findMany({ orderBy: { id: 'asc' } });
  world.products = products.map((p) => ({
    id: p.id,
    name: p.name,
    price: p.price.toNumber(),
    active: p.active,
  }));
  world.categoryIds = (await t.app.db.category.findMany({ select: { id: true } })).map((c) => c.id);
  for (let i = 0; i < 3; i++) {
    const made = await t.app.db.product.create({
      data: {
        name: `Back office ${i}`,
        price: '5.00',
        stock: 10,
        categoryId: world.categoryIds[0]!,
      },
    });
    world.backOfficeProductIds.push(made.id);
  }
  customer = await registerCustomer(t, { password: 'fuzzing password 1' });
  // A webhook with a delivery (a ping), for the operations on a delivery.
  const hook = await t.request({
    method: 'POST',
    url: '/webhooks',
    payload: { url: 'https://93.184.215.14/fuzz', events: ['*'] },
  });
  world.webhookIds.push(hook.json().data.id as number);
  const ping = await t.request({ method: 'POST', url: `/webhooks/${world.webhookIds[0]}/ping` });
  world.deliveryIds.push(ping.json().data.id as number);
  const admin = await staffMember(t, 'admin');
  world.staff = { email: admin.email, password: STAFF_PASSWORD, token: admin.token };
  // Orders for the back office's operations, which come before POST /orders in the document.
  for (let i = 0; i < 3; i++) {
    const product = world.products.find((p) => p.active)!;
    const order = await t.request({
      method: 'POST',
      url: '/orders',
      payload: {
        customer_name: 'Fuzz Buyer',
        customer_email: 'fuzz@example.com',
        items: [
          { product_id: product.id, product_name: product.name, quantity: 1, price: product.price },
        ],
      },
    });
    world.orderIds.push(order.json<{ data: { order_id: number } }>().data.order_id);
  }
  const firstPage = await t.request({ method: 'GET', url: '/admin/orders?limit=1' });
  world.orderCursors.push(
    firstPage.json<{ pagination: { next_cursor: string } }>().pagination.next_cursor,
  );
  // Reviews by two customers (one of them hidden), for the back office's reviews.
  const reviewer = await registerCustomer(t);
  for (const [i, author] of [customer, reviewer].entries()) {
    const review = await t.app.inject({
      method: 'POST',
      url: `/products/${activeProducts()[0]!.id}/reviews`,
      headers: { authorization: `Bearer ${author.token}` },
      payload: { rating: 4, title: 'Fuzzed', comment: 'A review for the fuzzer.' },
    });
    world.reviewIds.push(review.json<{ data: { review_id: number } }>().data.review_id);
    if (i === 1)
      await t.app.db.review.update({ where: { id: world.reviewIds[1] }, data: { hidden: true } });
  }
  // The first page of each keyset list, so that generated pages can follow its cursor.
  for (const [operationId, url] of [
    ['listAdminCustomers', '/admin/customers?limit=1'],
    ['listAdminReviews', '/admin/reviews?limit=1'],
    ['listAuditEntries', '/admin/audit?limit=1'],
  ] as const) {
    const page = await t.request({ method: 'GET', url });
    world.listCursors[operationId] = [
      page.json<{ pagination: { next_cursor: string } }>().pagination.next_cursor,
    ];
  }
  for (let i = 0; i < 8; i++) {
    const { account, setPassword } = await createStaff(t.app.db, null, {
      email: `fuzz-staff-${i}@example.com`,
      name: `Fuzz ${i}`,
      role: 'staff',
    });
    world.staffIds.push(account.id);
    world.setPasswordTokens.push(setPassword!.token);
  }
  checker = contractChecker({
    envelope: {
      type: 'object',
      required: ['success', 'error', 'status_code'],
      properties: {
        success: { enum: [false] },
        error: { type: 'string' },
        status_code: { type: 'integer' },
      },
      additionalProperties: false,
    },
    statusField: 'status_code',
    forbiddenKeys: ['password', 'password_hash', 'passwordHash', 'key_hash', 'keyHash', 'stack'],
    forbiddenText: [
      '$argon2',
      TEST_API_KEY,
      hashApiKey(TEST_API_KEY),
      'PrismaClient',
      'node_modules',
      /\bat .+\.[jt]s:\d+/,
    ],
  });
});
afterAll(() => t?.close());

const activeProducts = () => world.products.filter((p) => p.active);
const oneOf = <T>(list: () => T[]) =>
  fc.nat().map((i) => {
    const items = list();
    return items[i % Math.max(items.length, 1)];
  });

/** Known ids and consistent records, so that valid requests get past "not found" to the work. */
const hint: Hint = (op, where) => {
  if (where === 'path.id') {
    if (op.route.startsWith('/products')) return oneOf(() => world.products.map((p) => p.id));
    if (op.route.startsWith('/admin/products')) return oneOf(() => world.backOfficeProductIds);
    if (op.route.startsWith('/admin/categories')) return oneOf(() => world.categoryIds);
    if (op.route.startsWith('/orders') || op.route.startsWith('/admin/orders')) {
      return oneOf(() => world.orderIds);
    }
    if (op.route.startsWith('/customers') || op.route.startsWith('/admin/customers')) {
      return fc.constant(customer.id);
    }
    if (op.route.startsWith('/admin/reviews')) return oneOf(() => world.reviewIds);
    // Deletions take every other webhook, so the rest stay to be read, changed and pinged.
    if (op.operationId === 'retryWebhookDelivery') return fc.constant(world.webhookIds[0]);
    if (op.operationId === 'deleteWebhook') {
      return oneOf(() => world.webhookIds.filter((_, i) => i % 2 === 1));
    }
    if (op.route.startsWith('/webhooks')) {
      return oneOf(() => world.webhookIds.filter((_, i) => i % 2 === 0));
    }
  }
  if (where === 'path.id' && op.route.startsWith('/admin/staff'))
    return oneOf(() => world.staffIds);
  if (where === 'path.id' && op.route.startsWith('/admin/api-keys')) {
    return oneOf(() => world.apiKeyIds);
  }
  if (op.operationId === 'staffLogin' && where === 'body') {
    return fc
      .constant(null)
      .map(() => ({ email: world.staff.email, password: world.staff.password }));
  }
  if (op.operationId === 'changeStaffPassword' && where === 'body.current_password') {
    return fc.constant(null).map(() => world.staff.password);
  }
  if (op.operationId === 'setStaffPassword' && where === 'body.token') {
    return oneOf(() => world.setPasswordTokens);
  }
  if (op.operationId === 'listAdminOrders' && where === 'query.cursor') {
    return oneOf(() => world.orderCursors);
  }
  if (where === 'query.cursor' && world.listCursors[op.operationId]) {
    return oneOf(() => world.listCursors[op.operationId]!);
  }
  if (where === 'query.product_id') return oneOf(() => world.products.map((p) => p.id));
  if (op.operationId === 'getSalesFigures' && (where === 'query.from' || where === 'query.to')) {
    return fc.constantFrom('2026-01-01', '2026-03-29', '2026-10-25', '2026-12-31');
  }
  if (op.operationId === 'listAuditEntries' && where === 'query.resource') {
    return fc.constantFrom('order', 'review', 'staff', 'api_key');
  }
  if (op.operationId === 'listAuditEntries' && where === 'query.id') {
    return oneOf(() => [...world.orderIds, ...world.reviewIds].map(String));
  }
  if (where === 'path.deliveryId') return oneOf(() => world.deliveryIds);
  if (op.route.startsWith('/webhooks') && where === 'body.url') {
    return fc.constant('https://93.184.215.14/fuzz');
  }
  if (where === 'path.addressId') return oneOf(() => world.addressIds);
  if (
    where === 'query.category' ||
    where === 'query.category_id' ||
    where === 'body.category_id' ||
    where === 'body.preferences.categories[]'
  ) {
    return oneOf(() => world.categoryIds);
  }
  if (where === 'body.items') {
    return fc.array(
      fc.tuple(oneOf(activeProducts), fc.integer({ min: 1, max: 3 })).map(([p, quantity]) => ({
        product_id: p!.id,
        product_name: p!.name,
        quantity,
        price: p!.price,
      })),
      { minLength: 1, maxLength: 4 },
    );
  }
  if (op.operationId === 'loginCustomer' && where === 'body') {
    return fc.constant({ email: customer.email, password: customer.password });
  }
  if (op.operationId === 'unsubscribeNewsletter' && where === 'body.email') {
    return oneOf(() => world.subscribed);
  }
  return undefined;
};

function learn(op: Operation, request: GeneratedRequest, answer: Answer): void {
  // Nothing to learn from a failure or a download (the CSV export).
  if (
    answer.statusCode >= 300 ||
    !String(answer.headers['content-type']).startsWith('application/json')
  ) {
    return;
  }
  const body = JSON.parse(answer.body) as { data?: Record<string, unknown> };
  if (op.operationId === 'createOrder') world.orderIds.push(body.data!.order_id as number);
  if (op.operationId === 'createCustomerAddress') world.addressIds.push(body.data!.id as number);
  if (op.operationId === 'createWebhook') world.webhookIds.push(body.data!.id as number);
  if (op.operationId === 'pingWebhook') world.deliveryIds.push(body.data!.id as number);
  if (op.operationId === 'createApiKey') world.apiKeyIds.push(body.data!.id as number);
  if (op.operationId === 'createStaff' || op.operationId === 'resetStaffPassword') {
    const answer = body as { data?: { id: number }; set_password_token: string };
    if (answer.data) world.staffIds.push(answer.data.id);
    world.setPasswordTokens.push(answer.set_password_token);
  }
  if (op.operationId === 'changeStaffPassword') {
    // Its earlier tokens have ended: go on with the new password and the answer's token.
    world.staff.password = (JSON.parse(request.payload!) as { new_password: string }).new_password;
    world.staff.token = (body as unknown as { token: string }).token;
  }
  if (op.operationId === 'subscribeNewsletter') {
    world.subscribed.push(
      (JSON.parse(request.payload!) as { email: string }).email.trim().toLowerCase(),
    );
  }
}

async function send(op: Operation, request: GeneratedRequest): Promise<Answer> {
  const auth = credentialsFor(op, { customer: customer.token, staff: world.staff.token });
  const res = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...auth, ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  await keepFuzzerSignedIn(op);
  return { statusCode: res.statusCode, headers: res.headers, body: res.body };
}

/**
 * A mutated path may name the key or the admin the fuzzer works with (a small id): put them back
 * as they were, so that a revocation or a demotion does not turn every later request into a 401.
 */
async function keepFuzzerSignedIn(op: Operation): Promise<void> {
  if (op.operationId === 'revokeApiKey') {
    await t.app.db.apiKey.updateMany({
      where: { keyHash: hashApiKey(TEST_API_KEY) },
      data: { revokedAt: null },
    });
  }
  if (op.operationId === 'updateStaff') {
    await t.app.db.staffAccount.updateMany({
      where: { email: world.staff.email },
      data: { role: 'admin', disabledAt: null },
    });
  }
}

describeFuzzing({
  name: 'shop',
  document: 'openapi/shop.json',
  operations,
  runsOf,
  minimumRequests: 2_000,
  hint,
  send,
  learn,
  checker: () => checker,
  // The import's body is a file, which the fuzzer does not make (admin-catalogue.test.ts sends files).
  refusalOnly: ['importProducts'],
});
