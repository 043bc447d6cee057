// The back office's orders: finding them, an order's timeline, status changes and notes with
// their author, and the CSV export.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer } from './support/customers.js';
import { addProduct, orderBody, stockOf } from './support/orders.js';
import { foldOrderStatusCounts } from '../src/modules/order-admin/service.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let clerk: SignedInStaffMember;
let viewer: SignedInStaffMember;
let productId: number;
const placed: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  clerk = await staffMember(t, 'staff', 'Mia Clerk');
  viewer = await staffMember(t, 'viewer');
  productId = await addProduct(t.app, 'Back office lead', '10.00', 100);
  const customers = [
    ['jana', 'Jana Johannsen', 'jana.johannsen@example.com', '+49 4131 555 01', 1],
    ['otto', 'Otto Ölmann', 'otto@example.org', '0171 2223334', 3],
    ['mallory', '=HYPERLINK("http://x")', 'mallory@example.com', '-1', 2],
  ] as const;
  for (const [key, name, email, phone, quantity] of customers) {
    const res = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: productId, quantity, price: 10 }], {
        customer_name: name,
        customer_email: email,
        customer_phone: phone,
      }),
    });
    placed[key] = res.json().data.order_id as number;
  }
});
afterAll(() => t.close());

const get = (url: string, who = clerk) =>
  t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
const ids = (res: { json: () => unknown }) =>
  (res.json() as { data: Array<{ id: number }> }).data.map((o) => o.id);

describe('the order list', () => {
  it('lists newest first with the exact total, page by page', async () => {
    const first = await get('/admin/orders?limit=2');
    expect(first.statusCode).toBe(200);
    const body = first.json<{ pagination: { total: number; next_cursor: string } }>();
    expect(ids(first)).toEqual([placed.mallory, placed.otto]);
    expect(body.pagination.total).toBe(3);
    const second = await get(`/admin/orders?limit=2&cursor=${body.pagination.next_cursor}`);
    expect(ids(second)).toEqual([placed.jana]);
    expect(second.json<{ pagination: { next_cursor: null } }>().pagination.next_cursor).toBeNull();
    // A cursor continues only the sort it came from (a time is no amount).
    expectShopError(
      await get(`/admin/orders?sort=-total_amount&cursor=${body.pagination.next_cursor}`),
      400,
      /sort=-total_amount/,
    );
    const byTotal = await get('/admin/orders?sort=-total_amount&limit=1');
    const next = byTotal.json<{ pagination: { next_cursor: string } }>().pagination.next_cursor;
    expect(ids(await get(`/admin/orders?sort=-total_amount&limit=2&cursor=${next}`))).toEqual([
      placed.mallory,
      placed.jana,
    ]);
    expect(ids(await get('/admin/orders?sort=-total_amount'))).toEqual([
      placed.otto,
      placed.mallory,
      placed.jana,
    ]);
  });

  it('finds an order by its number, or a part of the e-mail, name or phone, case ignored', async () => {
    const find = async (q: string) => ids(await get(`/admin/orders?q=${encodeURIComponent(q)}`));
    expect(await find(String(placed.otto))).toEqual([placed.otto]);
    expect(await find('JOHANNSEN@EXAMPLE')).toEqual([placed.jana]);
    expect(await find('ölmann')).toEqual([placed.otto]);
    expect(await find('2223334')).toEqual([placed.otto]);
    expect(await find('%')).toEqual([]);
    expect(await find('example.')).toHaveLength(3);
    // A whole address finds that address's orders (case ignored), not the ones containing it.
    expect(await find('Jana.Johannsen@Example.com')).toEqual([placed.jana]);
    expect(await find('a.johannsen@example.com')).toEqual([]);
  });

  it('filters by several statuses and a time range', async () => {
    await t.app.inject({
      method: 'POST',
      url: `/admin/orders/${placed.jana}/status`,
      headers: bearer(clerk.token),
      payload: { status: 'confirmed' },
    });
    expect(ids(await get('/admin/orders?status=confirmed'))).toEqual([placed.jana]);
    const both = await get('/admin/orders?status=confirmed&status=pending');
    expect(both.json<{ pagination: { total: number } }>().pagination.total).toBe(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(ids(await get(`/admin/orders?created_from=${future}`))).toEqual([]);
    expect(ids(await get(`/admin/orders?created_to=${future}&status=pending`))).toEqual([
      placed.mallory,
      placed.otto,
    ]);
    expectShopError(await get('/admin/orders?cursor=bm9wZQ'), 400, /cursor/);
    expectShopError(await get('/admin/orders?status=lost'), 400);
  });
});

describe('an order in the back office', () => {
  it('moves only to an allowed next status; each change and note enters the timeline with its author', async () => {
    const id = placed.otto!;
    const change = (status: string, note?: string, who = clerk) =>
      t.app.inject({
        method: 'POST',
        url: `/admin/orders/${id}/status`,
        headers: bearer(who.token),
        payload: { status, ...(note ? { note } : {}) },
      });
    expectShopError(await change('delivered'), 409, /pending allows: confirmed, cancelled/);
    expectShopError(await change('confirmed', undefined, viewer), 403);
    expect((await change('confirmed', 'Paid by transfer')).statusCode).toBe(200);
    const shipped = await change('shipped', 'DHL 00340434161094042557');
    expect(shipped.json().data).toMatchObject({ status: 'shipped', allowed_next: ['delivered'] });
    const note = await t.app.inject({
      method: 'POST',
      url: `/admin/orders/${id}/notes`,
      headers: bearer(clerk.token),
      payload: { text: '  Customer asked for a gift wrap ' },
    });
    expect(note.statusCode).toBe(201);

    const detail = (await get(`/admin/orders/${id}`, viewer)).json().data;
    expect(detail.items).toEqual([
      expect.objectContaining({ product_id: productId, quantity: 3, price: 10, total_price: 30 }),
    ]);
    const author = { type: 'staff', id: clerk.id, name: 'Mia Clerk' };
    expect(
      detail.timeline.map((e: Record<string, unknown>) => [e.type, e.to, e.note, e.actor]),
    ).toEqual([
      ['status', 'pending', null, null],
      ['status', 'confirmed', 'Paid by transfer', author],
      ['status', 'shipped', 'DHL 00340434161094042557', author],
      ['note', null, 'Customer asked for a gift wrap', author],
    ]);
    // The storefront's API shows the new status; the event names who changed it.
    const storefront = await t.request({ method: 'GET', url: `/orders/${id}` });
    expect(storefront.json().data.status).toBe('shipped');
    const events = await t.app.db.event.findMany({ where: { type: 'order.status_changed' } });
    expect(events.map((e) => (e.data as { actor: unknown }).actor)).toContainEqual(author);
    const audit = await t.app.db.auditEntry.findMany({
      where: { resource: 'order', resourceId: String(id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((e) => [e.action, e.actorName])).toEqual([
      ['order.status', 'Mia Clerk'],
      ['order.status', 'Mia Clerk'],
      ['order.note', 'Mia Clerk'],
    ]);
  });

  it('puts the stock back when staff cancel, and answers 404 for an order that does not exist', async () => {
    const before = await stockOf(t.app, productId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/orders/${placed.mallory}/status`,
      headers: bearer(clerk.token),
      payload: { status: 'cancelled' },
    });
    expect(res.statusCode).toBe(200);
    expect(await stockOf(t.app, productId)).toBe(before + 2);
    expectShopError(await get('/admin/orders/2000000000'), 404);
    const missingNote = await t.app.inject({
      method: 'POST',
      url: '/admin/orders/2000000000/notes',
      headers: bearer(clerk.token),
      payload: { text: 'nobody' },
    });
    expectShopError(missingNote, 404);
  });
});

describe('the export', () => {
  it('streams the filter as CSV with a byte-order mark, formulas neutralised', async () => {
    const res = await get('/admin/orders/export?format=csv&q=example', viewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(
      '\ufeffid,created_at,status,customer_name,customer_email,customer_phone,customer_id,total_amount,items',
    );
    expect(lines).toHaveLength(4); // the header and three orders
    const mallory = lines.find((line) => line.startsWith(`${placed.mallory},`))!;
    expect(mallory).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(mallory).toContain(",'-1,");
    const semicolon = await get(
      '/admin/orders/export?format=csv&delimiter=semicolon&status=shipped',
    );
    expect(semicolon.body.split('\r\n')).toHaveLength(2);
    expect(semicolon.body).toContain(`${placed.otto};`);
  });
});

// Last: it places an order of its own, which the tests above do not expect.
describe('the totals by status', () => {
  it('keeps the totals by status exact through status changes, and folds the counts of backends that are gone', async () => {
    const counted = async () =>
      Object.fromEntries(
        (
          await t.app.db.$queryRaw<Array<{ status: string; n: number }>>`
            SELECT status::text, count(*)::int AS n FROM orders GROUP BY status`
        ).map((r) => [r.status, r.n]),
      );
    const totalOf = async (query: string) =>
      (await get(`/admin/orders?${query}`)).json<{ pagination: { total: number } }>().pagination
        .total;
    const extra = await t.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: productId, quantity: 1, price: 10 }]),
    });
    const id = extra.json().data.order_id as number;
    await t.app.inject({
      method: 'POST',
      url: `/admin/orders/${id}/status`,
      headers: bearer(clerk.token),
      payload: { status: 'confirmed' },
    });
    const real = await counted();
    for (const status of ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled']) {
      expect(await totalOf(`status=${status}`)).toBe(real[status] ?? 0);
    }
    expect(await totalOf('status=pending&status=confirmed')).toBe(
      (real.pending ?? 0) + (real.confirmed ?? 0),
    );
    // Rows of a backend that is gone (no process has this id) are folded into backend 0.
    await t.app.db.$executeRaw`
      INSERT INTO order_status_counts (status, backend, orders) VALUES ('shipped', 2147483000, 2),
             ('shipped', 2147483001, -2)`;
    expect(await foldOrderStatusCounts(t.app.db)).toBeGreaterThanOrEqual(1);
    const left = await t.app.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM order_status_counts WHERE backend >= 2147483000`;
    expect(left[0]!.n).toBe(0);
    expect(await totalOf('status=shipped')).toBe(real.shipped ?? 0);
    expect(await totalOf('')).toBe(Object.values(real).reduce((a, b) => a + b, 0));
  });
});
