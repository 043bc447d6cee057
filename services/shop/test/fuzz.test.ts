// Property-based fuzzing of every operation in openapi/shop.json (see packages/api-fuzz):
// 2,000 generated requests or more at full scale (a quarter in `pnpm test`: FUZZ_SCALE;
// `pnpm bench --only L-FUZZ` sends them all), seeded (FUZZ_SEED reproduces a run), valid and
// mutated. Never a 5xx; every 4xx in the error envelope; every 2xx valid against the document;
// no response carries a password hash, an API key or its hash, or a stack trace.
import { afterAll, beforeAll } from '@jest/globals';
import fc from 'fast-check';
import { hashApiKey } from '../src/modules/api-keys/service.js';
import { TEST_API_KEY, createTestApp, testConfig, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';
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
  ['registerCustomer', 'loginCustomer'].includes(op.operationId)
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
    if (op.route.startsWith('/orders')) return oneOf(() => world.orderIds);
    if (op.route.startsWith('/customers')) return fc.constant(customer.id);
    // Deletions take every other webhook, so the rest stay to be read, changed and pinged.
    if (op.operationId === 'retryWebhookDelivery') return fc.constant(world.webhookIds[0]);
    if (op.operationId === 'deleteWebhook') {
      return oneOf(() => world.webhookIds.filter((_, i) => i % 2 === 1));
    }
    if (op.route.startsWith('/webhooks')) {
      return oneOf(() => world.webhookIds.filter((_, i) => i % 2 === 0));
    }
  }
  if (where === 'path.deliveryId') return oneOf(() => world.deliveryIds);
  if (op.route.startsWith('/webhooks') && where === 'body.url') {
    return fc.constant('https://93.184.215.14/fuzz');
  }
  if (where === 'path.addressId') return oneOf(() => world.addressIds);
  if (where === 'query.category' || where === 'body.preferences.categories[]') {
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
  if (answer.statusCode >= 300) return;
  const body = JSON.parse(answer.body) as { data?: Record<string, unknown> };
  if (op.operationId === 'createOrder') world.orderIds.push(body.data!.order_id as number);
  if (op.operationId === 'createCustomerAddress') world.addressIds.push(body.data!.id as number);
  if (op.operationId === 'createWebhook') world.webhookIds.push(body.data!.id as number);
  if (op.operationId === 'pingWebhook') world.deliveryIds.push(body.data!.id as number);
  if (op.operationId === 'subscribeNewsletter') {
    world.subscribed.push(
      (JSON.parse(request.payload!) as { email: string }).email.trim().toLowerCase(),
    );
  }
}

async function send(op: Operation, request: GeneratedRequest): Promise<Answer> {
  const auth = op.public ? {} : op.bearer ? bearer(customer.token) : { 'x-api-key': TEST_API_KEY };
  const res = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...auth, ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  return { statusCode: res.statusCode, headers: res.headers, body: res.body };
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
});
