// Staff accounts: sign-in, roles, one-time links, password changes, the last admin, the audit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, TEST_API_KEY, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer, registerCustomer } from './support/customers.js';
import { STAFF_PASSWORD, staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let admin: SignedInStaffMember;

beforeAll(async () => {
  t = await createTestApp();
  admin = await staffMember(t, 'admin', 'Ada Admin');
});
afterAll(() => t.close());

const as = (token: string) => bearer(token);
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('staff sign-in', () => {
  it('answers the account, never a hash; GET /admin/auth/me shows it', async () => {
    const login = await call(
      'POST',
      '/admin/auth/login',
      {},
      {
        email: admin.email.toUpperCase(),
        password: STAFF_PASSWORD,
      },
    );
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('private, no-store');
    expect(login.json().user).toEqual({
      id: admin.id,
      email: admin.email,
      name: 'Ada Admin',
      role: 'admin',
    });
    expect(login.body).not.toMatch(/argon2|password/);
    const me = await call('GET', '/admin/auth/me', as(login.json().token));
    expect(me.json().data).toMatchObject({ id: admin.id, role: 'admin' });
  });

  it('answers the same 401 for an unknown e-mail and a wrong password', async () => {
    const unknown = await call(
      'POST',
      '/admin/auth/login',
      {},
      { email: 'nobody@example.com', password: 'x' },
    );
    const wrong = await call(
      'POST',
      '/admin/auth/login',
      {},
      { email: admin.email, password: 'wrong' },
    );
    expectShopError(unknown, 401);
    expect(wrong.body).toBe(unknown.body.replace(unknown.json().error, wrong.json().error));
    expect(wrong.json().error).toBe(unknown.json().error);
  });

  it('keeps customer and staff tokens apart', async () => {
    const customer = await registerCustomer(t);
    expectShopError(await call('GET', '/admin/auth/me', as(customer.token)), 401);
    expectShopError(await call('GET', '/admin/staff', as(customer.token)), 401);
    expectShopError(await call('GET', `/customers/${admin.id}/profile`, as(admin.token)), 401);
  });
});

describe('roles', () => {
  it('lets staff change orders but not manage staff or keys, and a viewer only read', async () => {
    const clerk = await staffMember(t, 'staff');
    const viewer = await staffMember(t, 'viewer');
    expect((await call('GET', '/stats', as(viewer.token))).statusCode).toBe(200);
    expectShopError(
      await call('GET', '/admin/staff', as(clerk.token)),
      403,
      /staff role may not read/,
    );
    expectShopError(await call('GET', '/webhooks', as(clerk.token)), 403);
    expectShopError(await call('GET', '/events', as(clerk.token)), 403);
    expectShopError(
      await call('PUT', '/orders/1', as(viewer.token), { status: 'confirmed' }),
      403,
      /viewer role may not change/,
    );
    // Past auth, the clerk's status change reaches the order (none with this id).
    expectShopError(
      await call('PUT', '/orders/2000000000', as(clerk.token), { status: 'confirmed' }),
      404,
    );
  });
});

describe('staff accounts', () => {
  it('creates an account with a one-time link that works once; the account then signs in', async () => {
    const created = await call('POST', '/admin/staff', as(admin.token), {
      email: ' New.Clerk@Example.com ',
      name: 'New Clerk',
      role: 'staff',
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.data).toMatchObject({
      email: 'new.clerk@example.com',
      role: 'staff',
      has_password: false,
      disabled: false,
    });
    expect(Date.parse(body.set_password_expires_at) - Date.now()).toBeGreaterThan(71 * 3600_000);
    const set = (password: string) =>
      call('POST', '/admin/auth/set-password', {}, { token: body.set_password_token, password });
    expect((await set('a long new passphrase')).statusCode).toBe(200);
    expectShopError(await set('another long passphrase'), 400, /invalid, used or expired/);
    const login = await call(
      'POST',
      '/admin/auth/login',
      {},
      {
        email: 'new.clerk@example.com',
        password: 'a long new passphrase',
      },
    );
    expect(login.statusCode).toBe(200);
    expectShopError(
      await call('POST', '/admin/staff', as(admin.token), {
        email: 'new.clerk@example.com',
        name: 'Twin',
        role: 'viewer',
      }),
      409,
    );
  });

  it('ends the earlier tokens when the password changes, and answers a new one', async () => {
    const member = await staffMember(t, 'viewer');
    const other = await call(
      'POST',
      '/admin/auth/login',
      {},
      { email: member.email, password: STAFF_PASSWORD },
    );
    const wrong = await call('PUT', '/admin/auth/password', as(member.token), {
      current_password: 'not it',
      new_password: 'a different passphrase',
    });
    expectShopError(wrong, 401);
    const changed = await call('PUT', '/admin/auth/password', as(member.token), {
      current_password: STAFF_PASSWORD,
      new_password: 'a different passphrase',
    });
    expect(changed.statusCode).toBe(200);
    for (const ended of [member.token, other.json().token as string]) {
      expectShopError(await call('GET', '/admin/auth/me', as(ended)), 401, /session has ended/);
    }
    expect((await call('GET', '/admin/auth/me', as(changed.json().token))).statusCode).toBe(200);
  });

  it('disabling ends the tokens at once; a reset link works while the old password keeps working until it is used', async () => {
    const member = await staffMember(t, 'staff');
    const reset = await call('POST', `/admin/staff/${member.id}/password-reset`, as(admin.token));
    expect(reset.statusCode).toBe(200);
    expect((await call('GET', '/admin/auth/me', as(member.token))).statusCode).toBe(200);
    const disabled = await call('PATCH', `/admin/staff/${member.id}`, as(admin.token), {
      disabled: true,
    });
    expect(disabled.json().data.disabled).toBe(true);
    expectShopError(await call('GET', '/admin/auth/me', as(member.token)), 401);
    expectShopError(
      await call(
        'POST',
        '/admin/auth/set-password',
        {},
        { token: reset.json().set_password_token, password: 'a long passphrase x' },
      ),
      400,
    );
  });

  it('keeps the last enabled admin, even when two admins demote each other at once', async () => {
    const solo = await createTestApp();
    try {
      const a = await staffMember(solo, 'admin');
      const b = await staffMember(solo, 'admin');
      const demote = (actor: SignedInStaffMember, target: SignedInStaffMember) =>
        solo.app.inject({
          method: 'PATCH',
          url: `/admin/staff/${target.id}`,
          headers: bearer(actor.token),
          payload: { role: 'viewer' },
        });
      const answers = await Promise.all([demote(a, b), demote(b, a)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const admins = await solo.app.db.staffAccount.count({
        where: { role: 'admin', disabledAt: null },
      });
      expect(admins).toBe(1);
      const last = answers[0].statusCode === 200 ? a : b;
      const self = await solo.app.inject({
        method: 'PATCH',
        url: `/admin/staff/${last.id}`,
        headers: bearer(last.token),
        payload: { disabled: true },
      });
      expectShopError(self, 409, /last enabled admin/);
    } finally {
      await solo.close();
    }
  });

  it('records every staff write with its author, never a hash', async () => {
    const created = await call('POST', '/admin/staff', as(admin.token), {
      email: 'audited@example.com',
      name: 'Audited',
      role: 'viewer',
    });
    const id = created.json().data.id as number;
    await call('PATCH', `/admin/staff/${id}`, as(admin.token), { role: 'staff' });
    await call('POST', `/admin/staff/${id}/password-reset`, { 'x-api-key': TEST_API_KEY });
    const entries = await t.app.db.auditEntry.findMany({
      where: { resource: 'staff', resourceId: String(id) },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.actorType, e.actorName])).toEqual([
      ['staff.create', 'staff', 'Ada Admin'],
      ['staff.update', 'staff', 'Ada Admin'],
      ['staff.password_reset', 'api_key', 'tests'],
    ]);
    expect(entries[1]).toMatchObject({
      before: { role: 'viewer' },
      after: { role: 'staff' },
    });
    expect(
      JSON.stringify(entries, (_key, value: unknown) =>
        typeof value === 'bigint' ? String(value) : value,
      ),
    ).not.toMatch(/argon2|token_hash|tokenHash/);
  });
});
