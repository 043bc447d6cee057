// The shop's share of the traffic: browsing, searching, customers, orders (some with an
// Idempotency-Key, some replayed), status changes and reviews.
import { call, type CallResult } from './http-call.js';
import { SHOP_API_KEY } from './platform.js';
import {
  bearer,
  idle,
  NOTHING,
  pick,
  type Operation,
  type TrafficContext,
} from './traffic-operation.js';
import type { World } from './world.js';

const key = { 'x-api-key': SHOP_API_KEY };
const SEARCH_TERMS = ['lead', 'dog', 'collar', 'bowl', 'red', 'leather', 'long', 'bag'];

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

export const SHOP_OPERATIONS: Operation[] = [
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
];

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
