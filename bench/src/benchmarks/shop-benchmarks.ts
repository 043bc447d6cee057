// The shop's comparisons: B2 (list and search), B3 (detail and reviews), B4 (orders, with the
// hot-product run) and B5 (login against the password-hash ceiling).
import path from 'node:path';
import type { Context } from '../context.js';
import {
  MATERIALS,
  NOUNS,
  customerEmail,
  CUSTOMER_COUNT,
  CUSTOMER_PASSWORD,
} from '../datasets/shop-dataset.js';
import { Random } from '../datasets/random.js';
import { probeLatency, runLoad, type HttpRequestSpec, type LoadResult } from '../infra/load.js';
import type { CapturedStatement, ScriptOptions } from '../infra/query-capture.js';
import { cleanEnv, runToCompletion } from '@dogshop/child-processes';
import type { RunningService } from '../infra/services.js';
import { meets, type Comparison, type HealthUnderLoad, type HotProductRun } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import type { RouteBench } from './shop-routes.js';
import { shopHeaders, type CapturedRequest } from './shop-sql.js';

export interface ShopCatalogueFacts {
  /** Active products with their prices, by id. */
  active: Array<{ id: number; price: string }>;
}

export async function catalogueFacts(ctx: Context, database: string): Promise<ShopCatalogueFacts> {
  const active = await ctx.pg.query<{ id: number; price: string }>(
    'SELECT id, price::text AS price FROM products WHERE active ORDER BY id',
    [],
    database,
  );
  return { active };
}

export function listBench(): RouteBench {
  return {
    id: 'B2a',
    title: 'Product list ÷ pgbench of its SQL',
    label: 'GET /products?limit=20',
    variants: [{ path: '/products?limit=20' }],
    target: { op: '>=', value: 0.65 },
  };
}

export function searchBench(count: number): RouteBench {
  const random = new Random(202);
  const variants = Array.from({ length: count }, () => {
    const min = random.int(10, 50);
    const max = min + random.int(100, 300);
    const search = `${random.pick(MATERIALS)} ${random.pick(NOUNS)}`;
    return {
      path: `/products?limit=20&search=${encodeURIComponent(search)}&min_price=${min}&max_price=${max}`,
    };
  });
  return {
    id: 'B2b',
    title: 'Product search with a price filter ÷ pgbench of its SQL',
    label: 'GET /products?limit=20&search=<2 terms>&min_price&max_price',
    variants,
    target: { op: '>=', value: 0.65 },
  };
}

function productIds(facts: ShopCatalogueFacts, count: number, seed: number): number[] {
  const random = new Random(seed);
  return random.distinct(count, 0, facts.active.length - 1).map((i) => facts.active[i]!.id);
}

export function detailBench(facts: ShopCatalogueFacts, count: number): RouteBench {
  return {
    id: 'B3a',
    title: 'Product detail (with its 10 newest reviews) ÷ pgbench of its SQL',
    label: 'GET /products/{id}',
    variants: productIds(facts, count, 303).map((id) => ({ path: `/products/${id}` })),
    target: { op: '>=', value: 0.65 },
  };
}

export function reviewsBench(facts: ShopCatalogueFacts, count: number): RouteBench {
  return {
    id: 'B3b',
    title: 'Product reviews page ÷ pgbench of its SQL',
    label: 'GET /products/{id}/reviews',
    variants: productIds(facts, count, 304).map((id) => ({ path: `/products/${id}/reviews` })),
    target: { op: '>=', value: 0.65 },
  };
}

const orderBody = (items: Array<{ id: number; price: string }>, name: string) =>
  JSON.stringify({
    customer_name: name,
    customer_email: 'bench.orders@example.com',
    customer_phone: '+49 30 1234567',
    items: items.map((p) => ({
      product_id: p.id,
      product_name: `product ${p.id}`,
      quantity: 1,
      price: Number(p.price),
    })),
  });

const ORDERS_INSERT = /^INSERT INTO "public"\."orders"/;
const ORDER_ID_INSERT =
  /^INSERT INTO "public"\."(order_items|order_status_history)" \(([^)]*)\) VALUES \((.*)\) RETURNING/s;
const ORDER_SELECT = /FROM "public"\."orders" AS "t0" WHERE "t0"\."id" = \$(\d+)/;

/**
 * Replays an order with the id its own INSERT returns (`\gset`), so that the items and the
 * history rows go to the new order, as the service's do.
 */
export function orderScriptOptions(captured: CapturedRequest): Omit<ScriptOptions, 'prefix'> {
  const orderId = String(
    (JSON.parse(captured.body) as { data: { order_id: number } }).data.order_id,
  );
  const start = captured.statements.findIndex((s) => ORDERS_INSERT.test(s.sql));
  // Today's order is one statement that takes its id from the sequence itself: nothing to chain.
  if (start < 0) return {};
  const positionsOf = (s: CapturedStatement): Set<number> => {
    const positions = new Set<number>();
    const insert = s.sql.match(ORDER_ID_INSERT);
    if (insert) {
      const columns = insert[2]!.split(',').map((c) => c.trim().replaceAll('"', ''));
      const values = splitTopLevel(insert[3]!);
      const placeholder = values[columns.indexOf('order_id')]?.match(/\$(\d+)/);
      if (placeholder) positions.add(Number(placeholder[1]));
    }
    const select = s.sql.match(ORDER_SELECT);
    if (select) positions.add(Number(select[1]));
    return positions;
  };
  return {
    after: (_s, index) => (index === start ? '\\gset ord_' : undefined),
    rewrite: (s, index, position) =>
      index > start && positionsOf(s).has(position) && s.params[position - 1] === orderId
        ? ':ord_id'
        : undefined,
  };
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts;
}

export function orderBench(facts: ShopCatalogueFacts, count: number): RouteBench {
  const random = new Random(405);
  // The hot product of the oversell run is kept out of these orders.
  const pool = facts.active.slice(1);
  const variants: HttpRequestSpec[] = Array.from({ length: count }, (_, i) => {
    const items = random
      .distinct(3, 0, pool.length - 1)
      .map((index) => pool[index]!)
      .sort((a, b) => a.id - b.id);
    return { method: 'POST', path: '/orders', body: orderBody(items, `Bench order ${i}`) };
  });
  return {
    id: 'B4',
    title: 'Place an order (3 items) ÷ pgbench of its SQL',
    label: 'POST /orders (3 items)',
    variants,
    target: { op: '>=', value: 0.5 },
    scriptOptions: orderScriptOptions,
    extraFloors: [
      {
        label: 'its write statement only (one WITH: lock, check, stock, order, items, history)',
        select: (statements) =>
          statements.filter((s) => /^(WITH|BEGIN|COMMIT|UPDATE|INSERT)/.test(s.sql)),
      },
    ],
  };
}

/**
 * 64 clients order the same product (one unit each) until it is sold out: no order may oversell,
 * and the final stock must be the initial stock minus the orders that succeeded.
 */
export async function hotProductRun(
  ctx: Context,
  shop: RunningService,
  database: string,
  facts: ShopCatalogueFacts,
): Promise<HotProductRun> {
  const product = facts.active[0]!;
  const initialStock = ctx.options.smoke ? 20 : 500;
  const clients = 64;
  await ctx.pg.query(
    'UPDATE products SET stock = $1 WHERE id = $2',
    [initialStock, product.id],
    database,
  );
  const before = await ctx.pg.query<{ n: string }>(
    'SELECT COALESCE(SUM(quantity), 0)::text AS n FROM order_items WHERE product_id = $1',
    [product.id],
    database,
  );
  const requests = Math.max(initialStock * 3, clients * 4);
  const body = orderBody([product], 'Hot product');
  const result = await runLoad({
    url: shop.url,
    requests: [{ method: 'POST', path: '/orders', body, headers: shopHeaders(body) }],
    connections: clients,
    amount: requests,
  });
  const [after] = await ctx.pg.query<{ stock: number }>(
    'SELECT stock FROM products WHERE id = $1',
    [product.id],
    database,
  );
  const [ordered] = await ctx.pg.query<{ n: string }>(
    'SELECT COALESCE(SUM(quantity), 0)::text AS n FROM order_items WHERE product_id = $1',
    [product.id],
    database,
  );
  const successes = result.statusCodes['201'] ?? 0;
  const refused = result.statusCodes['409'] ?? 0;
  const otherResponses = Object.fromEntries(
    Object.entries(result.statusCodes).filter(([code]) => code !== '201' && code !== '409'),
  );
  if (result.errors > 0) otherResponses.errors = result.errors;
  const finalStock = after!.stock;
  const orderedQuantity = Number(ordered!.n) - Number(before[0]!.n);
  return {
    productId: product.id,
    clients,
    requests,
    initialStock,
    successes,
    refusedInsufficientStock: refused,
    otherResponses,
    finalStock,
    orderedQuantity,
    oversold: finalStock < 0 || successes > initialStock,
    exact: finalStock === initialStock - successes && orderedQuantity === successes,
  };
}

/** Logins of the generated customers (all with the same password), in a fixed random order. */
export function loginRequests(): HttpRequestSpec[] {
  const random = new Random(505);
  return Array.from({ length: 500 }, () => {
    const body = JSON.stringify({
      email: customerEmail(random.int(1, CUSTOMER_COUNT)),
      password: CUSTOMER_PASSWORD,
    });
    return { method: 'POST' as const, path: '/customers/login', body, headers: shopHeaders(body) };
  });
}

/**
 * B5: logins per second ÷ the argon2id verify ceiling of this machine (the service's parameters,
 * as many verifications in flight as libuv has threads), and /health p99 during the logins ÷
 * idle /health p99.
 */
export async function loginBench(
  ctx: Context,
  shop: RunningService,
  database: string,
): Promise<{ comparison: Comparison; health: HealthUnderLoad }> {
  const seconds = ctx.options.durationSeconds;
  const [{ hash }] = (await ctx.pg.query<{ hash: string }>(
    'SELECT password_hash AS hash FROM customers ORDER BY id LIMIT 1',
    [],
    database,
  )) as [{ hash: string }];
  const requests = loginRequests();
  const threadpool = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const ceilingScript = path.join(import.meta.dirname, '..', 'servers', 'argon2-ceiling.mjs');
  const targets = { service: shop.process.pid, postmaster: ctx.pg.postmasterPid() };
  const ceiling = () =>
    withCpu(targets, async () => {
      const output = await runToCompletion({
        command: process.execPath,
        args: [ceilingScript],
        cwd: path.dirname(ceilingScript),
        env: cleanEnv({
          HASH: hash,
          PASSWORD: CUSTOMER_PASSWORD,
          SECONDS: String(seconds),
          PARALLEL: String(threadpool),
        }),
        timeoutMs: (seconds + 60) * 1000,
      });
      return JSON.parse(output.trim().split('\n').pop()!) as { rate: number; single: number };
    });
  const healthUrl = `${shop.url}/health`;
  const login = () =>
    withCpu(targets, async () => {
      const [load, probe] = await Promise.all([
        runLoad({ url: shop.url, requests, connections: threadpool * 2, duration: seconds }),
        probeLatency({ url: healthUrl, seconds: Math.max(1, seconds - 1) }),
      ]);
      return { ...load, probe };
    });
  const idle = () => probeLatency({ url: healthUrl, seconds: Math.max(1, seconds - 1) });
  const runs = await interleave(
    ctx.options.rounds,
    { logins: login, ceiling, idle: idle },
    ctx.log,
  );
  const logins = runs.logins;
  const ceilings = runs.ceiling;
  const idles = runs.idle as Array<{ p50: number; p99: number }>;
  const ratio = ratioFigure(
    logins.map((r) => r.rps),
    ceilings.map((r) => r.rate),
  );
  const target = { op: '>=' as const, value: 0.85 };
  const healthTarget = { op: '<=' as const, value: 2 };
  const healthRatio = ratioFigure(
    logins.map((r) => r.probe.p99),
    idles.map((r) => r.p99),
  );
  const failures = logins
    .filter((r) => r.non2xx + r.errors > 0)
    .map((r) => JSON.stringify(r.statusCodes));
  return {
    comparison: {
      id: 'B5',
      title: 'Customer login ÷ the password-verify ceiling',
      a: {
        label: `POST /customers/login, ${threadpool * 2} connections`,
        unit: 'req/s',
        figure: figure(logins.map((r) => r.rps)),
      },
      b: {
        label: `@node-rs/argon2 verify (argon2id, 19 MiB, t=2, p=1), ${threadpool} in flight`,
        unit: 'verify/s',
        figure: figure(ceilings.map((r) => r.rate)),
      },
      ratio,
      target,
      pass: meets(ratio.median, target) && failures.length === 0,
      latency: [
        {
          label: 'POST /customers/login',
          connections: threadpool * 2,
          rps: figure(logins.map((r) => r.rps)),
          p50: figure(logins.map((r) => r.latency.p50)),
          p99: figure(logins.map((r) => r.latency.p99)),
        },
      ],
      cpu: [
        cpuRow('logins', logins, (r: LoadResult) => r.rps),
        cpuRow(
          'argon2 ceiling script (counted as load generator)',
          ceilings,
          (r: { rate: number }) => r.rate,
        ),
      ],
      notes: [
        `Ceiling measured in a separate process: ${threadpool} verifications in flight (libuv's thread pool, UV_THREADPOOL_SIZE=${threadpool}) on ${ctx.report.machine.cpus} cores; one at a time it is ${figure(ceilings.map((c) => c.single)).median.toFixed(1)} verify/s, × ${ctx.report.machine.cpus} cores = ${(figure(ceilings.map((c) => c.single)).median * ctx.report.machine.cpus).toFixed(1)}.`,
        ...failures.map((f) => `non-2xx: ${f}`),
      ],
    },
    health: {
      idleP99: figure(idles.map((r) => r.p99)),
      loadedP99: figure(logins.map((r) => r.probe.p99)),
      idleP50: figure(idles.map((r) => r.p50)),
      loadedP50: figure(logins.map((r) => r.probe.p50)),
      ratio: healthRatio,
      target: healthTarget,
      pass: meets(healthRatio.median, healthTarget),
    },
  };
}
