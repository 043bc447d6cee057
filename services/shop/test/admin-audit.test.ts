// The audit read: every back-office write with its author, newest first, narrowed to a kind of
// record or one record, page by page; admins only (the scope `audit:read`); entries a year old
// stay (the shop's retention job leaves them alone).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditListResponseSchema } from '@dogshop/contracts/shop';
import { API_KEY_SCOPES } from '../src/modules/access/policy.js';
import { createApiKey } from '../src/modules/api-keys/service.js';
import { deleteExpiredEvents } from '../src/modules/events/service.js';
import { TEST_API_KEY, createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';
import { keyWith, staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let admin: SignedInStaffMember;
let clerk: SignedInStaffMember;
let orderId: number;
let reviewId: number;
let createdKey: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await staffMember(t, 'admin', 'Ada Admin');
  clerk = await staffMember(t, 'staff', 'Mia Clerk');
  const product = await addProduct(t.app, 'Audited lead', '10.00', 10);
  const order = await t.request({
    method: 'POST',
    url: '/orders',
    payload: orderBody([{ product_id: product, quantity: 1, price: 10 }]),
  });
  orderId = order.json().data.order_id as number;
  const customer = await registerCustomer(t);
  const review = await t.app.inject({
    method: 'POST',
    url: `/products/${product}/reviews`,
    headers: bearer(customer.token),
    payload: { rating: 2, title: 'Meh', comment: 'Not what I hoped for.' },
  });
  reviewId = review.json().data.review_id as number;

  // The writes, oldest first: a status change and a note by staff, a review hidden by staff, a
  // key and a staff account created by the admin.
  const asClerk = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.app.inject({ method, url, headers: bearer(clerk.token), payload });
  expect(
    (await asClerk('POST', `/admin/orders/${orderId}/status`, { status: 'confirmed' })).statusCode,
  ).toBe(200);
  expect(
    (await asClerk('POST', `/admin/orders/${orderId}/notes`, { text: 'Gift wrap' })).statusCode,
  ).toBe(201);
  expect((await asClerk('PATCH', `/admin/reviews/${reviewId}`, { hidden: true })).statusCode).toBe(
    200,
  );
  const key = await t.app.inject({
    method: 'POST',
    url: '/admin/api-keys',
    headers: bearer(admin.token),
    payload: { type: 'secret', title: 'Auditor', scopes: ['audit:read'] },
  });
  expect(key.statusCode).toBe(201);
  createdKey = key.json().key as string;
  const staff = await t.app.inject({
    method: 'POST',
    url: '/admin/staff',
    headers: bearer(admin.token),
    payload: { email: 'new.clerk@shop.example', name: 'New Clerk', role: 'staff' },
  });
  expect(staff.statusCode).toBe(201);
});
afterAll(() => t.close());

const audit = (query = '', who: SignedInStaffMember = admin) =>
  t.app.inject({ method: 'GET', url: `/admin/audit${query}`, headers: bearer(who.token) });
const actions = (res: { json: () => unknown }) =>
  (res.json() as { data: Array<{ action: string }> }).data.map((e) => e.action);

describe('the audit', () => {
  it('lists every back-office write newest first, with who, when, before and after', async () => {
    const res = await audit();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectContract(AuditListResponseSchema, res.json());
    // (The tests' own staff accounts are made without an actor, as the CLI makes them: no entry.)
    expect(actions(res)).toEqual([
      'staff.create',
      'api_key.create',
      'review.moderate',
      'order.note',
      'order.status',
    ]);
    const [staffCreated, keyCreated, moderated, , statusChanged] = res.json().data;
    expect(moderated).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      actor: { type: 'staff', id: clerk.id, name: 'Mia Clerk' },
      action: 'review.moderate',
      resource: 'review',
      resource_id: String(reviewId),
      before: { hidden: false },
      after: { hidden: true },
    });
    expect(statusChanged).toMatchObject({
      actor: { type: 'staff', id: clerk.id, name: 'Mia Clerk' },
      resource: 'order',
      resource_id: String(orderId),
      before: { status: 'pending' },
      after: { status: 'confirmed' },
    });
    expect(staffCreated).toMatchObject({
      actor: { type: 'staff', id: admin.id, name: 'Ada Admin' },
      resource: 'staff',
      before: null,
      after: expect.objectContaining({ email: 'new.clerk@shop.example', role: 'staff' }),
    });
    expect(keyCreated).toMatchObject({ resource: 'api_key', before: null });
    // Never a key, its hash, a password hash or a set-password token.
    expect(res.body).not.toContain(createdKey);
    expect(res.body).not.toMatch(/key_?hash|password_?hash|\$argon2|set_password_token/i);
    const ids = res.json().data.map((e: { id: number }) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('narrows to a kind of record, and to one record; `id` alone is 400', async () => {
    expect(actions(await audit('?resource=order'))).toEqual(['order.note', 'order.status']);
    expect(actions(await audit(`?resource=review&id=${reviewId}`))).toEqual(['review.moderate']);
    expect(actions(await audit('?resource=review&id=999999'))).toEqual([]);
    expect(actions(await audit('?resource=nothing'))).toEqual([]);
    expectShopError(
      await audit(`?id=${orderId}`),
      400,
      /querystring.id needs querystring.resource/,
    );
    expectShopError(await audit('?resource=Order%20s'), 400, /resource/);
    expectShopError(await audit('?id=1%3B2&resource=order'), 400, /id/);
  });

  it('pages with a cursor, and refuses a cursor it did not give', async () => {
    const first = await audit('?limit=2');
    const next = first.json().pagination.next_cursor as string;
    expect(next).toEqual(expect.any(String));
    const second = await audit(`?limit=2&cursor=${next}`);
    expect(actions(second)).toEqual(['review.moderate', 'order.note']);
    const all = await audit('?limit=100');
    expect(all.json().pagination.next_cursor).toBeNull();
    expect([...actions(first), ...actions(second)]).toEqual(actions(all).slice(0, 4));
    const filtered = await audit('?resource=order&limit=1');
    const more = await audit(
      `?resource=order&limit=1&cursor=${filtered.json().pagination.next_cursor}`,
    );
    expect(actions(more)).toEqual(['order.status']);
    expectShopError(await audit('?cursor=bm9wZQ'), 400, /cursor/);
    const customersCursor = Buffer.from(
      JSON.stringify(['customers', '2026-01-01T00:00:00.000Z', 1]),
    ).toString('base64url');
    expectShopError(await audit(`?cursor=${customersCursor}`), 400, /cursor/);
    const huge = Buffer.from(JSON.stringify(['audit', '9'.repeat(19)])).toString('base64url');
    expectShopError(await audit(`?cursor=${huge}`), 400, /cursor/);
  });

  it('keeps an entry a year old: the retention job deletes events, never audit entries', async () => {
    const yearAgo = new Date(Date.now() - 400 * 24 * 60 * 60_000);
    await t.app.db.auditEntry.updateMany({
      where: { resource: 'order', resourceId: String(orderId) },
      data: { at: yearAgo },
    });
    await deleteExpiredEvents(t.app.db, t.config.webhooks.eventRetentionDays);
    const res = await audit(`?resource=order&id=${orderId}`);
    expect(res.json().data.map((e: { at: string }) => e.at)).toEqual([
      yearAgo.toISOString(),
      yearAgo.toISOString(),
    ]);
  });
});

describe('who may read the audit', () => {
  it('opens to admins and to keys with audit:read, to no other role or scope', async () => {
    expectShopError(await audit('', clerk), 403, /staff role may not read this \(audit:read\)/);
    expectShopError(await audit('', await staffMember(t, 'viewer')), 403);
    const asKey = (key: string) =>
      t.app.inject({ method: 'GET', url: '/admin/audit', headers: { 'x-api-key': key } });
    expect((await asKey(createdKey)).statusCode).toBe(200);
    // The key with every scope there is (SHOP_API_KEY's kind) includes it.
    expect((await asKey(TEST_API_KEY)).statusCode).toBe(200);
    const everythingElse = await keyWith(t, {
      kind: 'secret',
      scopes: API_KEY_SCOPES.filter((scope) => scope !== 'audit:read'),
    });
    expectShopError(await asKey(everythingElse), 403, /lacks the scope audit:read/);
    expectShopError(await asKey(await keyWith(t, { kind: 'publishable' })), 403);
    const customer = await registerCustomer(t);
    const asCustomer = await t.app.inject({
      method: 'GET',
      url: '/admin/audit',
      headers: bearer(customer.token),
    });
    expectShopError(asCustomer, 401);
  });
});

describe('the migration that brought audit:read', () => {
  it('gave it to the keys holding every other scope, not to keys with a chosen set', async () => {
    const folder = new URL('../prisma/migrations/', import.meta.url);
    const name = readdirSync(folder).find((entry) => entry.endsWith('_audit_read'))!;
    const sql = readFileSync(new URL(`${name}/migration.sql`, folder), 'utf8');
    const grant = sql.slice(sql.indexOf('UPDATE "api_keys"'));
    const earlier = API_KEY_SCOPES.filter((scope) => scope !== 'audit:read');
    const everyScope = await createApiKey(t.app.db, 'from before', {
      kind: 'secret',
      scopes: earlier,
    });
    const chosen = await createApiKey(t.app.db, 'chosen', {
      kind: 'secret',
      scopes: ['orders:read', 'keys:manage'],
    });
    await t.app.db.$executeRawUnsafe(grant);
    const scopesOf = async (id: number) =>
      (await t.app.db.apiKey.findUniqueOrThrow({ where: { id } })).scopes;
    expect(await scopesOf(everyScope.info.id)).toEqual([...earlier, 'audit:read']);
    expect(await scopesOf(chosen.info.id)).toEqual(['orders:read', 'keys:manage']);
    // Run again, it adds nothing twice.
    await t.app.db.$executeRawUnsafe(grant);
    expect(await scopesOf(everyScope.info.id)).toEqual([...earlier, 'audit:read']);
  });
});
