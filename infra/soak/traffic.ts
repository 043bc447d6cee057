// Mixed traffic at a steady rate (open loop: requests start on schedule whether or not earlier
// ones have answered, up to a cap on requests in flight) against both services, remembering
// every answer and what each successful write promised, for the invariant checks.
import { DIRECTORY_ADMIN, SHOP_API_KEY } from './platform.js';

export type ServiceName = 'shop' | 'handler-directory';

export interface Outcome {
  service: ServiceName;
  op: string;
  /** ms since the start of the run. */
  startedAt: number;
  endedAt: number;
  status?: number;
  /** Network failure or 'timeout' when there was no HTTP answer. */
  error?: string;
  /** An answer that contradicts what the request should get (e.g. a wrong password accepted). */
  mismatch?: string;
}

export interface CallResult {
  status?: number;
  error?: string;
  mismatch?: string;
  json?: Record<string, unknown>;
  headers?: Headers;
}

/** A client waits this long for an answer; longer counts as a hang. */
export const REQUEST_TIMEOUT_MS = 10_000;

export async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<CallResult> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...opts.headers,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, headers: res.headers };
  } catch (error) {
    return { error: networkError(error) };
  }
}

function networkError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.code ?? e.cause?.name ?? e.name ?? 'error';
}

/** mulberry32: a small seeded generator, so a run's choices can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Product {
  id: number;
  name: string;
  price: number;
}

export interface PlacedOrder {
  id: number;
  /** product id → quantity, lines of the same product merged. */
  lines: Map<number, number>;
  /** 'uncertain' after a status change with no clear answer (503, no answer): left alone. */
  status: 'pending' | 'confirmed' | 'cancelled' | 'uncertain';
}

interface Customer {
  id: number;
  email: string;
  password: string;
  token: string;
}

interface HandlerRecord {
  name: string;
  phone: string;
  /** Phones of updates whose outcome is unknown (no answer, 503): one of them may have won. */
  uncertainPhones: string[];
}

/** What the traffic learnt: every write that answered 2xx, and the ones whose outcome is unknown. */
export class World {
  products: Product[] = [];
  customers: Customer[] = [];
  registeredEmails: string[] = [];
  orders = new Map<number, PlacedOrder>();
  /** Orders sent with an Idempotency-Key that answered 201: key → body and order id. */
  keyedOrders: Array<{ key: string; body: unknown; orderId: number }> = [];
  /** Replays of a keyed order: the id the replay answered and the original one. */
  replays: Array<{ original: number; replayed: number }> = [];
  reviews: Array<{ customerId: number; productId: number }> = [];
  handlers = new Map<string, HandlerRecord>();
  deletedHandlers = new Set<string>();
  /** Handlers whose deletion has an unknown outcome (503, no answer): left alone afterwards. */
  maybeDeletedHandlers = new Set<string>();
  /** Names of handlers whose creation has an unknown outcome. */
  uncertainHandlerNames = new Set<string>();
  adminToken = '';
  /** Ids with a request in flight: one request per order or handler at a time. */
  busy = new Set<string>();
  counter = 0;
}

interface Operation {
  service: ServiceName;
  name: string;
  weight: number;
  /** Statuses this operation answers when all is well. */
  expected: number[];
  run: (ctx: TrafficContext) => Promise<CallResult>;
}

export interface TrafficContext {
  shop: string;
  directory: string;
  world: World;
  random: () => number;
}

const key = { 'x-api-key': SHOP_API_KEY };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const pick = <T>(random: () => number, items: T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
const SEARCH_TERMS = ['lead', 'dog', 'collar', 'bowl', 'red', 'leather', 'long', 'bag'];
const NOTHING: CallResult = { status: 0 };

/** Low-stock products: orders for them run out, which must answer 409, never oversell. */
export const LOW_STOCK = 25;

function orderBody(ctx: TrafficContext) {
  const { random, world } = ctx;
  const lines: Array<{
    product_id: number;
    product_name: string;
    quantity: number;
    price: number;
  }> = [];
  for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++) {
    const product = pick(random, world.products)!;
    lines.push({
      product_id: product.id,
      product_name: product.name,
      quantity: 1 + Math.floor(random() * 3),
      price: product.price,
    });
  }
  return {
    customer_name: `Soak Customer ${world.counter++}`,
    customer_email: `soak-order-${world.counter}@example.com`,
    items: lines,
  };
}

function merged(items: Array<{ product_id: number; quantity: number }>): Map<number, number> {
  const lines = new Map<number, number>();
  for (const item of items)
    lines.set(item.product_id, (lines.get(item.product_id) ?? 0) + item.quantity);
  return lines;
}

export const OPERATIONS: Operation[] = [
  // Shop: browsing and searching.
  {
    service: 'shop',
    name: 'browse',
    weight: 14,
    expected: [200],
    run: ({ shop, random }) =>
      call(
        shop,
        'GET',
        `/products?page=${1 + Math.floor(random() * 3)}&limit=20&sort=${pick(random, ['newest', 'price_asc', 'name'])}`,
        { headers: key },
      ),
  },
  {
    service: 'shop',
    name: 'product',
    weight: 10,
    expected: [200],
    run: ({ shop, random, world }) =>
      call(shop, 'GET', `/products/${pick(random, world.products)!.id}`, { headers: key }),
  },
  {
    service: 'shop',
    name: 'search',
    weight: 10,
    expected: [200],
    run: ({ shop, random }) =>
      call(shop, 'GET', `/products?search=${pick(random, SEARCH_TERMS)}`, { headers: key }),
  },
  {
    service: 'shop',
    name: 'categories',
    weight: 3,
    expected: [200],
    run: ({ shop }) => call(shop, 'GET', '/categories', { headers: key }),
  },
  {
    service: 'shop',
    name: 'reviews',
    weight: 4,
    expected: [200],
    run: ({ shop, random, world }) =>
      call(shop, 'GET', `/products/${pick(random, world.products)!.id}/reviews?sort=rating`, {
        headers: key,
      }),
  },
  {
    service: 'shop',
    name: 'register',
    weight: 4,
    expected: [201],
    run: async ({ shop, world }) => {
      const n = world.counter++;
      const body = {
        email: `soak-${n}@example.com`,
        password: `soak password ${n}`,
        first_name: 'Soak',
        last_name: `Customer ${n}`,
      };
      const res = await call(shop, 'POST', '/customers/register', { headers: key, body });
      if (res.status === 201) {
        const data = res.json!.data as { customer_id: number; token: string };
        world.customers.push({
          id: data.customer_id,
          email: body.email,
          password: body.password,
          token: data.token,
        });
        world.registeredEmails.push(body.email);
      }
      return res;
    },
  },
  {
    service: 'shop',
    name: 'login',
    weight: 3,
    expected: [200, 401],
    run: async ({ shop, random, world }) => {
      const customer = pick(random, world.customers);
      if (!customer) return NOTHING;
      const wrong = random() < 0.15;
      const res = await call(shop, 'POST', '/customers/login', {
        headers: key,
        body: { email: customer.email, password: wrong ? 'not the password' : customer.password },
      });
      if (res.status === 200) customer.token = (res.json!.data as { token: string }).token;
      if (wrong && res.status === 200) return { ...res, mismatch: 'a wrong password was accepted' };
      if (!wrong && res.status === 401)
        return { ...res, mismatch: 'the right password was refused' };
      return res;
    },
  },
  {
    service: 'shop',
    name: 'profile',
    weight: 3,
    expected: [200],
    run: async ({ shop, random, world }) => {
      const customer = pick(random, world.customers);
      if (!customer) return NOTHING;
      return call(shop, 'GET', `/customers/${customer.id}/profile`, {
        headers: bearer(customer.token),
      });
    },
  },
  {
    service: 'shop',
    name: 'order',
    weight: 14,
    expected: [201, 409],
    run: async (ctx) => {
      const { shop, random, world } = ctx;
      const replay = random() < 0.08 ? pick(random, world.keyedOrders) : undefined;
      const idempotencyKey =
        replay?.key ?? (random() < 0.3 ? `soak-key-${world.counter++}` : undefined);
      const body = (replay?.body ?? orderBody(ctx)) as {
        items: Array<{ product_id: number; quantity: number }>;
      };
      const res = await call(shop, 'POST', '/orders', {
        headers: { ...key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        body,
      });
      if (res.status === 201) {
        const id = (res.json!.data as { order_id: number }).order_id;
        if (replay) world.replays.push({ original: replay.orderId, replayed: id });
        else {
          world.orders.set(id, { id, lines: merged(body.items), status: 'pending' });
          if (idempotencyKey) world.keyedOrders.push({ key: idempotencyKey, body, orderId: id });
        }
      }
      return res;
    },
  },
  {
    service: 'shop',
    name: 'cancel',
    weight: 3,
    expected: [200],
    run: ({ shop, random, world }) => changeStatus(shop, random, world, 'cancelled'),
  },
  {
    service: 'shop',
    name: 'confirm',
    weight: 2,
    expected: [200],
    run: ({ shop, random, world }) => changeStatus(shop, random, world, 'confirmed'),
  },
  {
    service: 'shop',
    name: 'review',
    weight: 5,
    expected: [201, 409],
    run: async ({ shop, random, world }) => {
      const customer = pick(random, world.customers);
      if (!customer) return NOTHING;
      // A few products only, so that customers try to review one twice (409).
      const product = pick(random, world.products.slice(0, 4))!;
      const res = await call(shop, 'POST', `/products/${product.id}/reviews`, {
        headers: bearer(customer.token),
        body: {
          rating: 1 + Math.floor(random() * 5),
          title: 'Soak review',
          comment: 'Written under load, twice if unlucky.',
        },
      });
      if (res.status === 201)
        world.reviews.push({ customerId: customer.id, productId: product.id });
      return res;
    },
  },
  {
    service: 'shop',
    name: 'stats',
    weight: 1,
    expected: [200],
    run: ({ shop }) => call(shop, 'GET', '/stats', { headers: key }),
  },

  // Handler directory: the public list, nearest search, and the admin area.
  {
    service: 'handler-directory',
    name: 'public-list',
    weight: 6,
    expected: [200],
    run: ({ directory }) => call(directory, 'GET', '/api/public/users'),
  },
  {
    service: 'handler-directory',
    name: 'nearest',
    weight: 4,
    expected: [200],
    run: ({ directory, random }) =>
      call(
        directory,
        'GET',
        `/api/public/users?lat=${(47 + random() * 8).toFixed(3)}&lng=${(6 + random() * 9).toFixed(3)}&radius_km=300`,
      ),
  },
  {
    service: 'handler-directory',
    name: 'admin-login',
    weight: 1,
    expected: [200],
    run: async ({ directory, world }) => {
      const res = await call(directory, 'POST', '/api/auth/login', { body: DIRECTORY_ADMIN });
      if (res.status === 200) world.adminToken = res.json!.token as string;
      return res;
    },
  },
  {
    service: 'handler-directory',
    name: 'create-handler',
    weight: 3,
    expected: [201],
    run: async ({ directory, random, world }) => {
      const n = world.counter++;
      const body = {
        name: `Soak Hundeführer ${n}`,
        phone: `+49 30 ${n}`,
        ...(random() < 0.5 ? { gps: { lat: 47 + random() * 8, lng: 6 + random() * 9 } } : {}),
      };
      const res = await call(directory, 'POST', '/api/users', {
        headers: bearer(world.adminToken),
        body,
      });
      if (res.status === 201) {
        const id = (res.json!.data as { _id: string })._id;
        world.handlers.set(id, { name: body.name, phone: body.phone, uncertainPhones: [] });
      } else if (res.status === undefined || res.status >= 500) {
        world.uncertainHandlerNames.add(body.name);
      }
      return res;
    },
  },
  {
    service: 'handler-directory',
    name: 'update-handler',
    weight: 2,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      const phone = `+49 40 ${world.counter++}`;
      try {
        const res = await call(directory, 'PUT', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
          body: { phone },
        });
        const record = world.handlers.get(id)!;
        if (res.status === 200) Object.assign(record, { phone, uncertainPhones: [] });
        else if (res.status === undefined || res.status >= 500) record.uncertainPhones.push(phone);
        return res;
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'get-handler',
    weight: 2,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      try {
        return await call(directory, 'GET', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
        });
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'delete-handler',
    weight: 1,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      try {
        const res = await call(directory, 'DELETE', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
        });
        if (res.status === 200) {
          world.handlers.delete(id);
          world.deletedHandlers.add(id);
        } else if (res.status === undefined || res.status >= 500) {
          world.handlers.delete(id);
          world.maybeDeletedHandlers.add(id);
        }
        return res;
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'export',
    weight: 1,
    expected: [200],
    run: ({ directory, random, world }) =>
      call(directory, 'GET', `/api/users/export?format=${random() < 0.5 ? 'csv' : 'json'}`, {
        headers: bearer(world.adminToken),
      }),
  },
];

/** A random id with no request in flight, marked busy; undefined when none is free. */
function idle(world: World, random: () => number, ids: string[]): string | undefined {
  const free = ids.filter((id) => !world.busy.has(id));
  const id = pick(random, free);
  if (id) world.busy.add(id);
  return id;
}

async function changeStatus(
  shop: string,
  random: () => number,
  world: World,
  to: 'cancelled' | 'confirmed',
): Promise<CallResult> {
  const candidates = [...world.orders.values()]
    .filter((o) =>
      to === 'cancelled'
        ? o.status === 'pending' || o.status === 'confirmed'
        : o.status === 'pending',
    )
    .map((o) => String(o.id));
  const id = idle(world, random, candidates);
  if (!id) return NOTHING;
  try {
    const res = await call(shop, 'PUT', `/orders/${id}`, { headers: key, body: { status: to } });
    const order = world.orders.get(Number(id))!;
    if (res.status === 200) order.status = to;
    else if (res.status === undefined || res.status >= 500) order.status = 'uncertain';
    return res;
  } finally {
    world.busy.delete(id);
  }
}

export interface LoadOptions {
  ratePerSecond: number;
  /** Requests in flight at most; a start that would exceed it is skipped and counted. */
  maxInFlight: number;
  seed: number;
}

export interface Load {
  outcomes: Outcome[];
  /** Starts skipped because maxInFlight requests were still waiting. */
  skipped: number;
  inFlight(): number;
  /** Stops starting requests and resolves once every request in flight has answered. */
  stop(): Promise<void>;
}

/** Starts the traffic; `now()` is the run's clock (ms since its start). */
export function startLoad(
  ctx: Omit<TrafficContext, 'random'>,
  opts: LoadOptions,
  now: () => number,
): Load {
  const random = seededRandom(opts.seed);
  const context: TrafficContext = { ...ctx, random };
  const total = OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const choose = () => {
    let r = random() * total;
    for (const op of OPERATIONS) {
      r -= op.weight;
      if (r < 0) return op;
    }
    return OPERATIONS[0]!;
  };
  const outcomes: Outcome[] = [];
  const pending = new Set<Promise<void>>();
  let skipped = 0;
  let started = 0;
  const begin = now();
  const launch = () => {
    const op = choose();
    const startedAt = now();
    const promise = op.run(context).then((res) => {
      if (res === NOTHING) return; // nothing to act on yet (no customer, no handler)
      outcomes.push({
        service: op.service,
        op: op.name,
        startedAt,
        endedAt: now(),
        ...(res.status !== undefined ? { status: res.status } : {}),
        ...(res.error !== undefined ? { error: res.error } : {}),
        ...(res.mismatch !== undefined ? { mismatch: res.mismatch } : {}),
      });
    });
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
  };
  const timer = setInterval(() => {
    const due = Math.floor(((now() - begin) / 1000) * opts.ratePerSecond);
    for (; started < due; started++) {
      if (pending.size >= opts.maxInFlight) skipped += 1;
      else launch();
    }
  }, 5);
  return {
    outcomes,
    get skipped() {
      return skipped;
    },
    inFlight: () => pending.size,
    stop: async () => {
      clearInterval(timer);
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/** Expected statuses per operation (for the report of unexpected answers). */
export const EXPECTED = new Map(OPERATIONS.map((op) => [`${op.service} ${op.name}`, op.expected]));
