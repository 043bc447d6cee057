// The back office's catalogue: products (inactive ones too) found and changed, stock adjusted with
// its movements, the category tree, and the CSV export and import.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseString } from 'fast-csv';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer, registerCustomer } from './support/customers.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;
let viewer: SignedInStaffMember;
let leads: number;
let collars: number;

interface Product {
  id: number;
  name: string;
  price: number;
  stock: number;
  active: boolean;
  category_id: number;
  category_name: string;
}

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff', 'Mia Clerk');
  viewer = await staffMember(t, 'viewer');
  leads = (await send('POST', '/admin/categories', { name: 'Leads', sort_order: 1 })).json().data
    .id;
  collars = (await send('POST', '/admin/categories', { name: 'Collars', parent_id: leads })).json()
    .data.id;
});
afterAll(() => t.close());

function send(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, who = clerk) {
  return t.app.inject({
    method,
    url,
    headers: bearer(who.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function create(fields: Record<string, unknown>): Promise<Product> {
  const res = await send('POST', '/admin/products', {
    description: '',
    category_id: leads,
    ...fields,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Product }>().data;
}

const movements = async (id: number) =>
  (await send('GET', `/admin/products/${id}/stock-movements?limit=100`)).json<{
    data: Array<{
      kind: string;
      delta: number;
      stock: number;
      reason: string | null;
      actor: { name: string } | null;
    }>;
  }>().data;

const auditOf = (id: number) =>
  t.app.db.auditEntry.findMany({
    where: { resource: 'product', resourceId: String(id) },
    orderBy: { id: 'asc' },
  });

describe('products', () => {
  it('creates a product with its opening stock as its first movement, audited', async () => {
    const p = await create({ name: 'Blood-tracking lead 10 m', price: 39.9, stock: 12 });
    expect(p).toMatchObject({ price: 39.9, stock: 12, active: true, category_name: 'Leads' });
    expect(await movements(p.id)).toEqual([
      expect.objectContaining({
        kind: 'created',
        delta: 12,
        stock: 12,
        actor: expect.objectContaining({ name: 'Mia Clerk' }),
      }),
    ]);
    const [entry] = await auditOf(p.id);
    expect(entry).toMatchObject({ action: 'product.create', actorName: 'Mia Clerk' });
    // The storefront sees it at once.
    const pub = await t.request({ method: 'GET', url: `/products/${p.id}` });
    expect(pub.statusCode).toBe(200);
  });

  it('refuses a name taken in the category, an unknown category and a price below a cent', async () => {
    await create({ name: 'Unique lead', price: 10 });
    expectShopError(
      await send('POST', '/admin/products', { name: 'Unique lead', price: 1, category_id: leads }),
      409,
      /already has a product named "Unique lead"/,
    );
    expectShopError(
      await send('POST', '/admin/products', { name: 'X', price: 1, category_id: 999_999 }),
      400,
      /body.category_id 999999 is not a category/,
    );
    expectShopError(
      await send('POST', '/admin/products', { name: 'Y', price: 1.005, category_id: leads }),
      400,
      /two decimals/,
    );
  });

  it('changes only the fields sent, records before and after, and deactivates instead of deleting', async () => {
    const p = await create({ name: 'Collar orange', price: 20, stock: 3 });
    const res = await send('PATCH', `/admin/products/${p.id}`, {
      price: 22.5,
      category_id: collars,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Collar orange',
      price: 22.5,
      category_id: collars,
      category_name: 'Collars',
      stock: 3,
    });
    const entries = await auditOf(p.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'product.update',
      before: { price: 20, category_id: leads },
      after: { price: 22.5, category_id: collars },
    });
    const events = await t.app.db.event.findMany({
      where: { type: { in: ['product.created', 'product.updated'] } },
      orderBy: { occurredAt: 'asc' },
    });
    const mine = events
      .map((e) => ({
        type: e.type,
        data: e.data as { id: number; changes?: string[]; actor?: { name: string } },
      }))
      .filter((e) => e.data.id === p.id);
    expect(mine.map((e) => [e.type, e.data.changes, e.data.actor?.name])).toEqual([
      ['product.created', undefined, 'Mia Clerk'],
      ['product.updated', ['price', 'category'], 'Mia Clerk'],
    ]);
    const off = await send('PATCH', `/admin/products/${p.id}`, { active: false });
    expect(off.json().data.active).toBe(false);
    expect((await t.request({ method: 'GET', url: `/products/${p.id}` })).statusCode).toBe(404);
    // Still in the back office.
    expect((await send('GET', `/admin/products/${p.id}`)).json().data.active).toBe(false);
    expectShopError(await send('PATCH', `/admin/products/${p.id}`, {}), 400, /fewer than 1/);
    expectShopError(
      await send('PATCH', '/admin/products/999999', { price: 1 }),
      404,
      /Product 999999 not found/,
    );
  });

  it('lists inactive products too, by filter and sort, page by page with the exact total', async () => {
    const a = await create({ name: 'Zeta harness', price: 80, stock: 0 });
    const b = await create({ name: 'Alpha harness', price: 60, stock: 2, active: false });
    const c = await create({ name: 'Mid harness', price: 70, stock: 9, category_id: collars });
    const list = async (query: string) => {
      const res = await send('GET', `/admin/products?${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<{
        data: Product[];
        pagination: { total: number; next_cursor: string | null };
      }>();
    };
    const byName = await list('q=harness&sort=name&limit=2');
    expect(byName.data.map((p) => p.id)).toEqual([b.id, c.id]);
    expect(byName.pagination.total).toBe(3);
    const rest = await list(`q=harness&sort=name&limit=2&cursor=${byName.pagination.next_cursor}`);
    expect(rest.data.map((p) => p.id)).toEqual([a.id]);
    expect(rest.pagination.next_cursor).toBeNull();
    expect((await list('q=harness&active=false')).data.map((p) => p.id)).toEqual([b.id]);
    expect((await list('q=harness&stock_below=1')).data.map((p) => p.id)).toEqual([a.id]);
    expect((await list('q=harness&sort=-price')).data.map((p) => p.id)).toEqual([a.id, c.id, b.id]);
    expect((await list('q=harness&sort=stock')).data.map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    // A category includes its descendants.
    expect((await list(`q=harness&category_id=${leads}`)).pagination.total).toBe(3);
    expect((await list(`q=harness&category_id=${collars}`)).data.map((p) => p.id)).toEqual([c.id]);
    expect((await list(`q=${c.id}`)).data.map((p) => p.id)).toEqual([c.id]);
    expectShopError(
      await send('GET', `/admin/products?sort=price&cursor=${byName.pagination.next_cursor}`),
      400,
      /sort=price/,
    );
  });
});

describe('stock', () => {
  it('adds, takes away and sets with a reason; never below 0; movements add up to the stock', async () => {
    const p = await create({ name: 'Stock lead', price: 10, stock: 5 });
    const adjust = (body: object) => send('POST', `/admin/products/${p.id}/stock`, body);
    const taken = await adjust({ delta: -3, reason: 'damaged' });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().data).toMatchObject({
      product: { stock: 2 },
      movement: {
        kind: 'adjustment',
        delta: -3,
        stock: 2,
        reason: 'damaged',
        actor: { name: 'Mia Clerk' },
      },
    });
    expectShopError(
      await adjust({ delta: -3, reason: 'more' }),
      409,
      /has 2 in stock: cannot take away 3/,
    );
    expect((await adjust({ set: 7, reason: 'stocktake' })).json().data.movement).toMatchObject({
      delta: 5,
      stock: 7,
    });
    expectShopError(await adjust({ delta: 1, set: 1, reason: 'both' }), 400, /either delta or set/);
    expectShopError(await adjust({ reason: 'neither' }), 400, /either delta or set/);
    expectShopError(await adjust({ delta: 0, reason: 'nothing' }), 400, /must not be 0/);
    expectShopError(await adjust({ delta: 1 }), 400, /reason/);
    const list = await movements(p.id);
    expect(list.map((m) => m.kind)).toEqual(['adjustment', 'adjustment', 'created']);
    expect(list.reduce((sum, m) => sum + m.delta, 0)).toBe(7);
    expect((await auditOf(p.id)).at(-1)).toMatchObject({
      action: 'product.stock',
      before: { stock: 2 },
      after: { stock: 7, reason: 'stocktake' },
    });
  });

  it('names the customer of an order as its movement’s actor, and nobody for a guest', async () => {
    const p = await create({ name: 'Ordered lead', price: 10, stock: 5 });
    const buyer = await registerCustomer(t);
    const line = [{ product_id: p.id, product_name: 'Ordered lead', quantity: 1, price: 10 }];
    const signedIn = await t.request({
      method: 'POST',
      url: '/orders',
      headers: bearer(buyer.token),
      payload: { customer_name: 'Ann Buyer', customer_email: buyer.email, items: line },
    });
    expect(signedIn.statusCode).toBe(201);
    const guest = await t.request({
      method: 'POST',
      url: '/orders',
      payload: { customer_name: 'A Guest', customer_email: 'guest@example.com', items: line },
    });
    expect(guest.statusCode).toBe(201);
    const [fromGuest, fromBuyer] = await movements(p.id);
    expect(fromBuyer).toMatchObject({
      kind: 'order',
      delta: -1,
      stock: 4,
      actor: { type: 'customer', id: buyer.id, name: buyer.email },
    });
    expect(fromGuest).toMatchObject({ kind: 'order', delta: -1, stock: 3, actor: null });
  });

  it('announces a product running out and coming back', async () => {
    const p = await create({ name: 'Event lead', price: 10, stock: 1 });
    await send('POST', `/admin/products/${p.id}/stock`, { delta: -1, reason: 'sold at the fair' });
    await send('POST', `/admin/products/${p.id}/stock`, { delta: 4, reason: 'delivery' });
    const events = await t.app.db.event.findMany({
      where: { type: { in: ['product.out_of_stock', 'product.back_in_stock'] } },
      orderBy: { occurredAt: 'asc' },
    });
    const mine = events.filter((e) => (e.data as { product_id: number }).product_id === p.id);
    expect(mine.map((e) => [e.type, (e.data as { stock: number }).stock])).toEqual([
      ['product.out_of_stock', 0],
      ['product.back_in_stock', 4],
    ]);
  });

  it('pages through movements and answers 404 for an unknown product', async () => {
    const p = await create({ name: 'Paged lead', price: 10, stock: 1 });
    for (let i = 0; i < 3; i++) {
      await send('POST', `/admin/products/${p.id}/stock`, { delta: 1, reason: `box ${i}` });
    }
    const first = await send('GET', `/admin/products/${p.id}/stock-movements?limit=2`);
    const next = first.json().pagination.next_cursor as string;
    const second = await send(
      'GET',
      `/admin/products/${p.id}/stock-movements?limit=2&cursor=${next}`,
    );
    expect(second.json().data.map((m: { kind: string }) => m.kind)).toEqual([
      'adjustment',
      'created',
    ]);
    expectShopError(await send('GET', '/admin/products/999999/stock-movements'), 404, /not found/);
    expectShopError(
      await send('GET', `/admin/products/${p.id}/stock-movements?cursor=abc`),
      400,
      /cursor/,
    );
  });
});

describe('roles', () => {
  it('lets a viewer read the catalogue and change nothing', async () => {
    const p = await create({ name: 'Viewer lead', price: 10, stock: 1 });
    expect((await send('GET', `/admin/products/${p.id}`, undefined, viewer)).statusCode).toBe(200);
    expect((await send('GET', '/admin/categories', undefined, viewer)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['PATCH', `/admin/products/${p.id}`, { price: 1 }],
      ['POST', `/admin/products/${p.id}/stock`, { delta: 1, reason: 'x' }],
      ['POST', '/admin/categories', { name: 'Nope' }],
    ] as const) {
      expect((await send(method, url, body, viewer)).statusCode).toBe(403);
    }
    expect((await send('GET', `/admin/products/${p.id}`)).json().data.price).toBe(10);
  });
});

describe('categories', () => {
  it('lists every category with its product counts', async () => {
    const cat = (await send('POST', '/admin/categories', { name: 'Counted' })).json().data;
    await create({ name: 'Counted 1', price: 1, category_id: cat.id });
    await create({ name: 'Counted 2', price: 1, category_id: cat.id, active: false });
    const list = (await send('GET', '/admin/categories')).json().data as Array<{
      id: number;
      product_count: number;
      active_product_count: number;
    }>;
    expect(list.find((c) => c.id === cat.id)).toMatchObject({
      product_count: 2,
      active_product_count: 1,
    });
  });

  it('refuses a cycle, an unknown parent and a taken name; deactivates out of the storefront', async () => {
    const top = (await send('POST', '/admin/categories', { name: 'Top' })).json().data.id;
    const mid = (await send('POST', '/admin/categories', { name: 'Mid', parent_id: top })).json()
      .data.id;
    const low = (await send('POST', '/admin/categories', { name: 'Low', parent_id: mid })).json()
      .data.id;
    expectShopError(
      await send('PATCH', `/admin/categories/${top}`, { parent_id: low }),
      409,
      new RegExp(`category ${top} cannot have parent ${low}`),
    );
    expectShopError(
      await send('PATCH', `/admin/categories/${top}`, { parent_id: top }),
      409,
      /own parent/,
    );
    expectShopError(
      await send('PATCH', `/admin/categories/${low}`, { parent_id: 999_999 }),
      400,
      /not a category/,
    );
    expectShopError(
      await send('POST', '/admin/categories', { name: 'Top' }),
      409,
      /exists already/,
    );
    expectShopError(
      await send('PATCH', '/admin/categories/999999', { sort_order: 1 }),
      404,
      /not found/,
    );
    const moved = await send('PATCH', `/admin/categories/${low}`, {
      parent_id: null,
      sort_order: 5,
    });
    expect(moved.json().data).toMatchObject({ parent_id: null, sort_order: 5 });
    await send('PATCH', `/admin/categories/${mid}`, { active: false });
    const storefront = (await t.request({ method: 'GET', url: '/categories' })).json()
      .data as Array<{ id: number }>;
    expect(storefront.map((c) => c.id)).not.toContain(mid);
    const audit = await t.app.db.auditEntry.findMany({
      where: { resource: 'category', resourceId: String(low) },
      orderBy: { id: 'asc' },
    });
    expect(audit.at(-1)).toMatchObject({
      action: 'category.update',
      before: { parent_id: mid, sort_order: 0 },
      after: { parent_id: null, sort_order: 5 },
    });
  });
});

describe('export and import', () => {
  const exportCsv = async (query = '') => {
    const res = await send('GET', `/admin/products/export?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    return res.body;
  };
  const importCsv = (csv: string, dryRun = true) =>
    t.app.inject({
      method: 'POST',
      url: `/admin/products/import?dry_run=${dryRun}`,
      headers: { ...bearer(clerk.token), 'content-type': 'text/csv' },
      payload: csv,
    });
  const rowsOf = (csv: string) =>
    new Promise<string[][]>((resolve, reject) => {
      const rows: string[][] = [];
      parseString(csv.replace(/^\ufeff/, ''), { headers: false })
        .on('data', (row: string[]) => rows.push(row))
        .on('error', reject)
        .on('end', () => resolve(rows));
    });
  const toCsv = (rows: string[][]) =>
    rows
      .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(','))
      .join('\r\n');

  it('exports formula-safe CSV that imports back as unchanged', async () => {
    await create({ name: '=cmd|calc', description: 'Line one\nline "two"', price: 5.5, stock: 4 });
    const csv = await exportCsv();
    expect(
      csv.startsWith('\ufeffid,name,description,price,category_id,category_name,stock,active\r\n'),
    ).toBe(true);
    expect(csv).toContain(`'=cmd|calc`);
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report.dry_run).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.summary.unchanged).toBe(report.summary.rows);
    expect(report.summary.rows).toBeGreaterThan(5);
  });

  it('names the row and column of each bad row and applies nothing', async () => {
    const p = await create({ name: 'Import target', price: 10, stock: 3 });
    const [header, row] = await rowsOf(await exportCsv(`q=${p.id}`));
    const at = (column: string) => header!.indexOf(column);
    const changed = [...row!];
    changed[at('price')] = '12.50';
    const bad1 = [...row!];
    bad1[at('id')] = '999999';
    const bad2 = [...row!];
    bad2[at('id')] = '';
    bad2[at('name')] = 'New from import';
    bad2[at('price')] = '1.234';
    const bad3 = [...row!];
    bad3[at('id')] = '';
    bad3[at('name')] = 'Another new';
    bad3[at('category_id')] = String(leads);
    bad3[at('category_name')] = 'Collars';
    bad3[at('active')] = 'maybe';
    const csv = toCsv([header!, changed, bad1, bad2, bad3]);
    const res = await importCsv(csv, false);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({
      success: false,
      status_code: 422,
      error: 'import not applied: 3 rows have problems',
    });
    expect(body.data.applied).toBe(false);
    expect(body.data.problems).toEqual([
      { row: 3, column: 'id', message: 'no product has id 999999' },
      { row: 4, column: 'price', message: 'is not an amount with at most two decimals' },
      { row: 5, column: 'active', message: 'is not true or false' },
      {
        row: 5,
        column: 'category_name',
        message: expect.stringMatching(/is not the name of category/),
      },
    ]);
    expect((await send('GET', `/admin/products/${p.id}`)).json().data.price).toBe(10);
  });

  it('applies creates and updates in one go; a stock that differs is an import movement', async () => {
    const p = await create({ name: 'Applied target', price: 10, stock: 3 });
    const [header, row] = await rowsOf(await exportCsv(`q=${p.id}`));
    const at = (column: string) => header!.indexOf(column);
    const changed = [...row!];
    changed[at('stock')] = '9';
    changed[at('price')] = '11,00';
    const created = [...row!];
    created[at('id')] = '';
    created[at('name')] = 'Created by import';
    created[at('stock')] = '';
    const dry = (await importCsv(toCsv([header!, changed, created]))).json().data;
    expect(dry.rows).toEqual([
      { row: 2, action: 'update', id: p.id, changes: ['price', 'stock'] },
      { row: 3, action: 'create', id: null, changes: [] },
    ]);
    const res = await importCsv(toCsv([header!, changed, created]), false);
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report.applied).toBe(true);
    const newId = report.rows[1].id as number;
    expect((await send('GET', `/admin/products/${p.id}`)).json().data).toMatchObject({
      price: 11,
      stock: 9,
    });
    expect((await send('GET', `/admin/products/${newId}`)).json().data).toMatchObject({
      name: 'Created by import',
      stock: 0,
    });
    const list = await movements(p.id);
    expect(list[0]).toMatchObject({ kind: 'import', delta: 6, stock: 9 });
    expect(list.reduce((sum, m) => sum + m.delta, 0)).toBe(9);
  });

  it('refuses a file that is not the export’s: unknown column, no header, not CSV', async () => {
    expectShopError(
      await importCsv('id,name,price,category_id,colour\r\n'),
      400,
      /unknown column "colour"/,
    );
    expectShopError(await importCsv('id,name,category_id\r\n'), 400, /no column "price"/);
    expectShopError(await importCsv(''), 400, /(no header row|CSV file)/);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/admin/products/import',
      headers: { ...bearer(clerk.token), 'content-type': 'application/json' },
      payload: '{}',
    });
    expectShopError(wrongType, 415, /text\/csv/);
  });
});
