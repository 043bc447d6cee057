// A1 and A2, the back office's figures. A1: `GET /admin/orders` with its exact total at 10,000
// and 1,000,000 orders (a status filter newest first, and `q` by e-mail), 16 connections, p50.
// A2: stock adjustments beside orders on one hot product: both rates, and the stock exact.
// A3: the admin app's order list in Chromium, 50 rows painted after their answer.
import { launchChromium } from '@dogshop/web-kit/testing';
import type { Context } from '../context.js';
import { cloneDataset, description, ensureShopDataset } from '../datasets/cache.js';
import { runLoad, type HttpRequestSpec } from '../infra/load.js';
import { migrateShopDatabase } from '../infra/shop-database.js';
import { startShop, type RunningService } from '../infra/services.js';
import type { Timing } from '../results.js';
import { figure, type Figure } from '../stats.js';
import { awaitPaint, paintWatch, timing, type Paint } from './list-paint.js';
import { shopHeaders } from './shop-sql.js';

export const A1_ORDERS = [10_000, 1_000_000];
export const A1_CONNECTIONS = 16;
const A1_TARGET_P50_MS = 50;
const ORDERS_DATASET_VERSION = 1;
const BATCH = 100_000;

export interface A1Row {
  orders: number;
  request: string;
  p50: Figure;
  p99: Figure;
  rps: Figure;
  total: number;
  pass: boolean;
}

export interface A2Run {
  seconds: number;
  connections: number;
  ordersPerSecond: number;
  adjustmentsPerSecond: number;
  orders: number;
  ordersRefused: number;
  adjustments: number;
  other: Record<string, number>;
  initialStock: number;
  finalStock: number;
  movementSum: number;
  exact: boolean;
}

export interface A3Run {
  orders: number;
  /** Status filters clicked (each a new request of 50 rows), the warm-up aside. */
  runs: number;
  /** The answer's responseEnd to the rows in the DOM, to the next frame, to that frame rendered. */
  domMs: Timing;
  frameMs: Timing;
  paintedMs: Timing;
  rows: Figure;
  encodedBytes: Figure;
  targetMs: number;
  /** p95 within the target. */
  pass: boolean;
}

export interface BackOfficeRun {
  a1: A1Row[];
  a2?: A2Run;
  a3?: A3Run;
}

const A3_ORDERS = 10_000;
const A3_RUNS = 15;
const A3_TARGET_MS = 100;
const A3_STAFF = { email: 'bench.admin@shop.example', password: 'the bench admin passphrase' };
/** The orders list's status filters, clicked in turn: each one a new request of 50 rows. */
const STATUS_FILTERS = ['Pending', 'Confirmed', 'Shipped', 'Delivered', 'Cancelled', 'All'];

const FIRST = ['Anna', 'Jana', 'Otto', 'Mia', 'Lukas', 'Jonas', 'Lea', 'Paul', 'Emma', 'Felix'];
const LAST = ['Berger', 'Johannsen', 'Ölmann', 'Krüger', 'Hansen', 'Schulz', 'Weber', 'Jäger'];

/** The e-mail of generated order `n` (as the load's `q` asks for it). */
const emailOf = (n: number) =>
  `${FIRST[n % FIRST.length]!.toLowerCase()}.${LAST[Math.floor(n / FIRST.length) % LAST.length]!.toLowerCase()}${n}@example.com`;

/**
 * `count` orders on top of the main catalogue, generated in SQL (`generate_series`, BATCH rows a
 * statement) with one line each: newest last, a minute apart; statuses 3 % pending, 5 %
 * confirmed, 12 % shipped, 75 % delivered, 5 % cancelled. The trigram index on `search_text` is
 * dropped for the load and re-created from its own definition.
 */
async function ensureOrdersDataset(ctx: Context, count: number): Promise<string> {
  const { database: catalogue } = await ensureShopDataset(ctx, ctx.options.products);
  const database = `dataset_orders_${count}_v${ORDERS_DATASET_VERSION}`;
  if ((await ctx.pg.databaseExists(database)) && (await description(ctx, database))) {
    await migrateShopDatabase(ctx.pg.url(database));
    return database;
  }
  ctx.log(`building the orders data set: ${count} orders (cached in ${ctx.options.dataDir})`);
  const building = `${database}_building`;
  await ctx.pg.recreateDatabase(building, catalogue);
  const started = Date.now();
  const q = (sql: string, params: unknown[] = []) => ctx.pg.query(sql, params, building);
  const [index] = await q(
    `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index
      WHERE indexrelid = 'orders_search_text_trgm_idx'::regclass`,
  );
  await q('DROP INDEX orders_search_text_trgm_idx');
  const first = FIRST.map((n) => `'${n}'`).join(',');
  const last = LAST.map((n) => `'${n}'`).join(',');
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await q(
      `WITH g AS (
         SELECT n, (ARRAY[${first}])[1 + n % ${FIRST.length}] AS fn,
                (ARRAY[${last}])[1 + (n / ${FIRST.length}) % ${LAST.length}] AS ln,
                (SELECT array_agg(id ORDER BY id) FROM products WHERE active) AS products
           FROM generate_series($1::int, $2::int) n
       ), o AS (
         INSERT INTO orders (id, customer_name, customer_email, customer_phone, total_amount,
                             status, created_at, updated_at)
         SELECT n, fn || ' ' || ln, lower(fn) || '.' || lower(ln) || n || '@example.com',
                '+49 171 ' || (1000000 + n % 9000000), ((n::bigint * 7919) % 50000) / 100.0 + 5,
                (CASE WHEN n % 100 < 3 THEN 'pending' WHEN n % 100 < 8 THEN 'confirmed'
                      WHEN n % 100 < 20 THEN 'shipped' WHEN n % 100 < 95 THEN 'delivered'
                      ELSE 'cancelled' END)::order_status,
                now() - (($3::int - n) * interval '1 minute'),
                now() - (($3::int - n) * interval '1 minute')
           FROM g
       )
       INSERT INTO order_items (order_id, product_id, product_name, quantity, unit_price, total_price)
       SELECT n, products[1 + n % cardinality(products)], 'generated', 1, 5, 5 FROM g`,
      [from, to, count],
    );
  }
  await q(`SELECT setval(pg_get_serial_sequence('orders', 'id'), $1::int)`, [count]);
  await q((index as { def: string }).def);
  await ctx.pg.query('VACUUM ANALYZE', [], building);
  const seconds = (Date.now() - started) / 1000;
  ctx.log(`  ${count} orders loaded in ${seconds.toFixed(0)} s`);
  await ctx.pg.query(
    `COMMENT ON DATABASE "${building}" IS '${JSON.stringify({ orders: count, seconds })}'`,
  );
  await ctx.pg.dropDatabase(database);
  await ctx.pg.renameDatabase(building, database);
  await migrateShopDatabase(ctx.pg.url(database));
  return database;
}

/** The two A1 requests, each in 50 variants (cursors aside, what staff ask for). */
function a1Requests(count: number): Array<{ label: string; requests: HttpRequestSpec[] }> {
  const headers = shopHeaders();
  const emails = Array.from({ length: 50 }, (_, i) =>
    emailOf(Math.max(1, Math.floor(((i + 1) * count) / 51))),
  );
  return [
    {
      label: 'status=pending, newest first, 50 rows, exact total',
      requests: [{ path: '/admin/orders?status=pending&limit=50', headers }],
    },
    {
      label: 'q=<a customer’s e-mail>, 50 rows, exact total',
      requests: emails.map((email) => ({
        path: `/admin/orders?limit=50&q=${encodeURIComponent(email)}`,
        headers,
      })),
    },
  ];
}

async function a1(ctx: Context, count: number): Promise<A1Row[]> {
  const template = await ensureOrdersDataset(ctx, count);
  const database = await cloneDataset(ctx, template, `bench_orders_${count}`);
  const shop = await startShop(ctx.pg.url(database));
  const rows: A1Row[] = [];
  try {
    for (const { label, requests } of a1Requests(count)) {
      ctx.log(`A1 ${count} orders: ${label}`);
      const first = await fetch(`${shop.url}${requests[0]!.path}`, {
        headers: requests[0]!.headers,
      });
      const total = ((await first.json()) as { pagination: { total: number } }).pagination.total;
      const runs = [];
      // The first round warms the cache and is dropped, as in every other figure.
      for (let round = 0; round < ctx.options.rounds; round++) {
        runs.push(
          await runLoad({
            url: shop.url,
            requests,
            connections: A1_CONNECTIONS,
            duration: ctx.options.durationSeconds,
          }),
        );
      }
      const kept = runs.slice(1);
      const p50 = figure(kept.map((r) => r.latency.p50));
      rows.push({
        orders: count,
        request: label,
        p50,
        p99: figure(kept.map((r) => r.latency.p99)),
        rps: figure(kept.map((r) => r.rps)),
        total,
        pass: p50.median <= A1_TARGET_P50_MS && kept.every((r) => r.non2xx === 0),
      });
    }
  } finally {
    await shop.stop();
  }
  return rows;
}

/**
 * A2: 16 connections on one product, half of them placing orders of one, half adding one to its
 * stock with a reason, for the run's duration; then the stock must be the initial stock minus
 * the orders plus the adjustments, and its movements must add up to it.
 */
async function a2(ctx: Context, shop: RunningService, database: string): Promise<A2Run> {
  const initialStock = 1_000_000;
  const [category] = await ctx.pg.query<{ id: number }>(
    'SELECT id FROM categories ORDER BY id LIMIT 1',
    [],
    database,
  );
  const body = JSON.stringify({
    name: 'A2 hot product',
    price: 10,
    category_id: category!.id,
    stock: initialStock,
  });
  const created = await fetch(`${shop.url}/admin/products`, {
    method: 'POST',
    headers: shopHeaders(body),
    body,
  });
  const product = ((await created.json()) as { data: { id: number } }).data;
  const order = JSON.stringify({
    customer_name: 'Hot buyer',
    customer_email: 'hot.buyer@example.com',
    items: [{ product_id: product.id, product_name: 'A2 hot product', quantity: 1, price: 10 }],
  });
  const adjust = JSON.stringify({ delta: 1, reason: 'delivery' });
  const connections = 16;
  const result = await runLoad({
    url: shop.url,
    requests: [
      { method: 'POST', path: '/orders', body: order, headers: shopHeaders(order) },
      {
        method: 'POST',
        path: `/admin/products/${product.id}/stock`,
        body: adjust,
        headers: shopHeaders(adjust),
      },
    ],
    connections,
    duration: ctx.options.durationSeconds,
  });
  // Counted in the database: a request autocannon stopped waiting for at the end of the run may
  // still have committed.
  const [after] = await ctx.pg.query<{
    stock: number;
    sum: string;
    orders: string;
    adjusted: string;
    lines: string;
  }>(
    `SELECT p.stock,
            (SELECT count(*) FROM order_items i WHERE i.product_id = p.id)::text AS lines,
            (SELECT sum(delta) FROM stock_movements m WHERE m.product_id = p.id)::text AS sum,
            (SELECT count(*) FROM stock_movements m
              WHERE m.product_id = p.id AND m.kind = 'order')::text AS orders,
            (SELECT count(*) FROM stock_movements m
              WHERE m.product_id = p.id AND m.kind = 'adjustment')::text AS adjusted
       FROM products p WHERE p.id = $1`,
    [product.id],
    database,
  );
  const orders = Number(after!.orders);
  const adjustments = Number(after!.adjusted);
  const other = Object.fromEntries(
    Object.entries(result.statusCodes).filter(([code]) => code !== '200' && code !== '201'),
  );
  return {
    seconds: result.seconds,
    connections,
    ordersPerSecond: orders / result.seconds,
    adjustmentsPerSecond: adjustments / result.seconds,
    orders,
    ordersRefused: result.statusCodes['409'] ?? 0,
    adjustments,
    other,
    initialStock,
    finalStock: after!.stock,
    movementSum: Number(after!.sum),
    exact:
      after!.stock === initialStock - orders + adjustments &&
      Number(after!.sum) === after!.stock &&
      Number(after!.lines) === orders,
  };
}

/**
 * A3: the admin app (`/app/`, the shop's build) signed in as a staff admin made through the API,
 * on A1's orders; each status filter clicked in turn, and for each the time from its answer's
 * responseEnd (Resource Timing) to its 50 rows on screen (list-paint.ts). Desktop size, English.
 */
async function a3(ctx: Context): Promise<A3Run> {
  const template = await ensureOrdersDataset(ctx, A3_ORDERS);
  const database = await cloneDataset(ctx, template, `bench_orders_app_${A3_ORDERS}`);
  const shop = await startShop(ctx.pg.url(database));
  const browser = await launchChromium();
  try {
    const body = JSON.stringify({ email: A3_STAFF.email, name: 'Bench Admin', role: 'admin' });
    const created = await fetch(`${shop.url}/admin/staff`, {
      method: 'POST',
      headers: shopHeaders(body),
      body,
    });
    const { set_password_token: token } = (await created.json()) as { set_password_token: string };
    const password = JSON.stringify({ token, password: A3_STAFF.password });
    const set = await fetch(`${shop.url}/admin/auth/set-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: password,
    });
    if (!set.ok) throw new Error(`A3: the staff password was refused (${set.status})`);

    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    await page.goto(`${shop.url}/app/`);
    await page.getByLabel('E-mail').fill(A3_STAFF.email);
    await page.getByLabel('Password', { exact: true }).fill(A3_STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('table.orders tbody tr').first().waitFor({ timeout: 30_000 });
    const runs: Paint[] = [];
    for (let i = 0; i <= A3_RUNS; i++) {
      const filter = STATUS_FILTERS[i % STATUS_FILTERS.length]!;
      await page.evaluate(paintWatch('section[aria-labelledby=orders-heading]', 'limit=50'));
      await page
        .getByRole('group', { name: 'Status' })
        .getByRole('button', { name: new RegExp(`^${filter}`) })
        .click();
      const result = await awaitPaint(page, 30_000, `the ${filter} orders`);
      ctx.log(
        `    A3 ${i}${i === 0 ? ' (warm-up)' : ''} ${filter}: ${result.rows} rows; after the answer: DOM ${result.domMs.toFixed(1)} ms, frame ${result.frameMs.toFixed(1)} ms, rendered ${result.paintedMs.toFixed(1)} ms`,
      );
      if (i > 0) runs.push(result);
    }
    await context.close();
    const paintedMs = timing(runs.map((r) => r.paintedMs));
    return {
      orders: A3_ORDERS,
      runs: runs.length,
      domMs: timing(runs.map((r) => r.domMs)),
      frameMs: timing(runs.map((r) => r.frameMs)),
      paintedMs,
      rows: figure(runs.map((r) => r.rows)),
      encodedBytes: figure(runs.map((r) => r.encodedBytes)),
      targetMs: A3_TARGET_MS,
      pass: paintedMs.p95 <= A3_TARGET_MS,
    };
  } finally {
    await browser.close();
    await shop.stop();
  }
}

export async function backOfficeBench(
  ctx: Context,
  which: { a1: boolean; a2: boolean; a3: boolean },
): Promise<BackOfficeRun> {
  const run: BackOfficeRun = { a1: [] };
  if (which.a1) {
    const sizes = ctx.options.smoke ? [300, 3_000] : A1_ORDERS;
    for (const count of sizes) run.a1.push(...(await a1(ctx, count)));
  }
  if (which.a2) {
    const { database: template } = await ensureShopDataset(ctx, ctx.options.products);
    const database = await cloneDataset(ctx, template, 'bench_shop_a2');
    const shop = await startShop(ctx.pg.url(database));
    try {
      ctx.log('A2 stock adjustments beside orders on one product');
      run.a2 = await a2(ctx, shop, database);
    } finally {
      await shop.stop();
    }
  }
  if (which.a3) {
    ctx.log('A3 the admin app’s order list: 50 rows painted after their answer');
    run.a3 = await a3(ctx);
  }
  return run;
}

/** The report's section. */
export function backOfficeNotes(run: BackOfficeRun): string[] {
  const lines = ['### A1–A3 — the back office', ''];
  if (run.a1.length) {
    lines.push(
      `A1: \`GET /admin/orders\` at ${A1_CONNECTIONS} connections, the exact total in every answer; p50 target ≤ ${A1_TARGET_P50_MS} ms.`,
      '',
      '| orders | request | total | p50 ms | p99 ms | req/s | pass |',
      '| ---: | --- | ---: | ---: | ---: | ---: | --- |',
    );
    const f = (x: Figure, d = 1) =>
      `${x.median.toFixed(d)} [${x.min.toFixed(d)}–${x.max.toFixed(d)}]`;
    for (const r of run.a1) {
      lines.push(
        `| ${r.orders.toLocaleString('en')} | ${r.request} | ${r.total.toLocaleString('en')} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.rps, 0)} | ${r.pass ? 'yes' : 'NO'} |`,
      );
    }
    lines.push('');
  }
  if (run.a2) {
    const a = run.a2;
    lines.push(
      `A2: ${a.connections} connections on one product for ${a.seconds.toFixed(1)} s, half ordering one, half adding one with a reason: ${a.ordersPerSecond.toFixed(0)} orders/s and ${a.adjustmentsPerSecond.toFixed(0)} adjustments/s (${a.orders} orders, ${a.ordersRefused} refused, ${a.adjustments} adjustments${Object.keys(a.other).length ? `, other answers ${JSON.stringify(a.other)}` : ''}). Stock ${a.initialStock} → ${a.finalStock}, movements add up to ${a.movementSum}: ${a.exact ? 'exact' : 'NOT EXACT'}.`,
      '',
    );
  }
  if (run.a3) {
    const a = run.a3;
    const t = (x: Timing) =>
      `${x.median.toFixed(1)} ms [${x.min.toFixed(1)}–${x.max.toFixed(1)}], p95 ${x.p95.toFixed(1)} ms`;
    lines.push(
      `A3: the admin app's order list in Chromium (1280×800) over ${a.orders.toLocaleString('en')} orders, each status filter in turn (${a.runs} answers of ${a.rows.median} rows, ${(a.encodedBytes.median / 1000).toFixed(1)} kB each): the answer's responseEnd to the rows in the DOM ${t(a.domMs)}; to the next frame rendered ${t(a.paintedMs)}; target p95 ≤ ${a.targetMs} ms: ${a.pass ? 'yes' : 'NO'}.`,
      '',
    );
  }
  return lines;
}
