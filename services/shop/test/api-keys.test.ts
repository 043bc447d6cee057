// API keys through the back office: kinds, scopes, shown once, revocation, last use, audit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer } from './support/customers.js';
import { staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let admin: SignedInStaffMember;

beforeAll(async () => {
  // No key cache: a revocation shows on the next request (api-key-cache.test.ts covers the cache).
  t = await createTestApp({ apiKeyCacheMs: 0 });
  admin = await staffMember(t, 'admin', 'Key Keeper');
});
afterAll(() => t.close());

const create = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/admin/api-keys', headers: bearer(admin.token), payload });
const list = async () =>
  (
    await t.app.inject({ method: 'GET', url: '/admin/api-keys', headers: bearer(admin.token) })
  ).json<{ data: Array<Record<string, unknown>> }>().data;

describe('API keys', () => {
  it('shows a secret key once and lists it redacted, with its scopes and last use', async () => {
    const res = await create({ type: 'secret', title: 'Reports', scopes: ['stats:read'] });
    expect(res.statusCode).toBe(201);
    const { key, data } = res.json<{ key: string; data: { id: number } }>();
    expect(key).toMatch(/^sk_/);
    expect(data).toMatchObject({
      type: 'secret',
      title: 'Reports',
      key: null,
      scopes: ['stats:read'],
      last_used_at: null,
    });
    const stats = await t.app.inject({
      method: 'GET',
      url: '/stats',
      headers: { 'x-api-key': key },
    });
    expect(stats.statusCode).toBe(200);
    const listed = (await list()).find((k) => k.id === data.id)!;
    expect(listed.redacted).toBe(`${key.slice(0, 12)}…`);
    expect(JSON.stringify(await list())).not.toContain(key);
    expect(Date.parse(listed.last_used_at as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('lists a publishable key in full (it is public) and refuses scopes for it', async () => {
    const res = await create({ type: 'publishable', title: 'Web shop' });
    const { key, data } = res.json<{ key: string; data: { id: number; key: string } }>();
    expect(key).toMatch(/^pk_/);
    expect(data.key).toBe(key);
    expectShopError(
      await create({ type: 'publishable', title: 'x', scopes: ['orders:read'] }),
      400,
      /takes no scopes/,
    );
    expectShopError(await create({ type: 'secret', title: 'x' }), 400, /needs at least one scope/);
    expectShopError(await create({ type: 'secret', title: 'x', scopes: ['orders:all'] }), 400);
  });

  it('revokes: the key answers 401 at once, the listing shows when, the audit who', async () => {
    const { key, data } = (
      await create({ type: 'secret', title: 'Leaked', scopes: ['orders:read'] })
    ).json();
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api-keys/${data.id}`,
      headers: bearer(admin.token),
    });
    expect(revoke.statusCode).toBe(200);
    const use = await t.app.inject({
      method: 'GET',
      url: '/products',
      headers: { 'x-api-key': key },
    });
    expectShopError(use, 401, /Invalid or revoked API key/);
    expect((await list()).find((k) => k.id === data.id)!.revoked_at).toEqual(expect.any(String));
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/admin/api-keys/2000000000',
      headers: bearer(admin.token),
    });
    expectShopError(missing, 404);
    const audit = await t.app.db.auditEntry.findMany({
      where: { resource: 'api_key', resourceId: String(data.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((e) => [e.action, e.actorName])).toEqual([
      ['api_key.create', 'Key Keeper'],
      ['api_key.revoke', 'Key Keeper'],
    ]);
    expect(
      JSON.stringify(audit, (_key, value: unknown) =>
        typeof value === 'bigint' ? String(value) : value,
      ),
    ).not.toContain(key);
  });

  it('lets a secret key with keys:manage manage keys, and no other', async () => {
    const { key: manager } = (
      await create({ type: 'secret', title: 'Ops', scopes: ['keys:manage'] })
    ).json();
    const { key: other } = (
      await create({ type: 'secret', title: 'Not ops', scopes: ['orders:read'] })
    ).json();
    const listWith = (key: string) =>
      t.app.inject({ method: 'GET', url: '/admin/api-keys', headers: { 'x-api-key': key } });
    expect((await listWith(manager)).statusCode).toBe(200);
    expectShopError(await listWith(other), 403, /lacks the scope keys:manage/);
  });
});
