// Accounts for people: admins manage admin, viewer and handler accounts over the API; a handler
// account is bound to one handler and may read it and set its availability and position, and
// nothing else; set-password tokens work once and expire; the last enabled admin stays.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AccountListResponseSchema,
  AccountResponseSchema,
  CreatedAccountResponseSchema,
  MeResponseSchema,
  PasswordChangedResponseSchema,
  PasswordResetResponseSchema,
} from '@dogshop/contracts/handler-directory';
import { MESSAGES } from '../src/messages.js';
import { createTestApp, type Account, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'a long handler passphrase';

/** Creates an account through the API as the test admin; the answer's body. */
async function addAccount(body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/accounts', payload: body, as: t.admin });
  expect(res.statusCode).toBe(201);
  expectContract(CreatedAccountResponseSchema, res.json());
  return res.json<{
    data: { id: string; username: string; role: string; handlerId: string | null };
    setPasswordToken?: string;
  }>();
}

const setPassword = (token: string, password = PASSWORD) =>
  t.request({ method: 'POST', url: '/api/auth/set-password', payload: { token, password } });

/** A handler record and a signed-in handler account bound to it. */
async function handlerAccount(username: string): Promise<{ handlerId: string; account: Account }> {
  const handler = await createHandler(t);
  const created = await addAccount({ username, role: 'handler', handlerId: handler._id });
  expect((await setPassword(created.setPasswordToken!)).statusCode).toBe(200);
  const token = await t.login(username, PASSWORD);
  return {
    handlerId: handler._id,
    account: { ...t.admin, id: created.data.id, username, role: 'handler', token },
  };
}

describe('accounts, managed by admins', () => {
  it('creates an account with a password that can sign in at once, role in the login answer', async () => {
    const created = await addAccount({
      username: 'Vera.Viewer2',
      role: 'viewer',
      password: PASSWORD,
    });
    expect(created.data).toMatchObject({
      username: 'vera.viewer2',
      role: 'viewer',
      handlerId: null,
      disabled: false,
      passwordSet: true,
    });
    expect(created).not.toHaveProperty('setPasswordToken');
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'vera.viewer2', password: PASSWORD },
    });
    expect(login.json().user).toEqual({
      id: created.data.id,
      username: 'vera.viewer2',
      role: 'viewer',
    });
  });

  it('without a password answers a one-time set-password token (72 h) that works once', async () => {
    const before = Date.now();
    const res = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: { username: 'neu.admin', role: 'admin' },
      as: t.admin,
    });
    const body = res.json();
    expect(body.data.passwordSet).toBe(false);
    expect(body.setPasswordToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(body.setPasswordExpiresAt) - before;
    expect(ttl).toBeGreaterThan(72 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(72 * 3600_000 + 60_000);
    // No password yet: no login.
    const early = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'neu.admin', password: PASSWORD },
    });
    expect(early.statusCode).toBe(401);
    const first = await setPassword(body.setPasswordToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, message: 'Passwort wurde gesetzt' });
    expect(first.headers['cache-control']).toBe('private, no-store');
    const again = await setPassword(body.setPasswordToken, 'another long passphrase');
    expectDirectoryError(
      again,
      400,
      'Der Link zum Setzen des Passworts ist ungültig, abgelaufen oder schon benutzt',
    );
    expect(await t.login('neu.admin', PASSWORD)).toEqual(expect.any(String));
  });

  it('a set-password token used by two requests at once sets one password, once', async () => {
    const created = await addAccount({ username: 'doppelt.klick', role: 'viewer' });
    const answers = await Promise.all([
      setPassword(created.setPasswordToken!, 'the first long passphrase'),
      setPassword(created.setPasswordToken!, 'the second long passphrase'),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0].statusCode === 200 ? 'first' : 'second';
    expect(await t.login('doppelt.klick', `the ${winner} long passphrase`)).toEqual(
      expect.any(String),
    );
  });

  it('refuses an expired set-password token', async () => {
    const created = await addAccount({ username: 'spaet.kommer', role: 'viewer' });
    // Three days pass: the stored end moves into the past.
    await t.app.db.admins.updateOne(
      { _id: created.data.id },
      { $set: { 'setPassword.expiresAt': new Date(Date.now() - 1000) } },
    );
    expectDirectoryError(await setPassword(created.setPasswordToken!), 400, /ungültig, abgelaufen/);
  });

  it('a password reset gives a new token; the earlier one stops working', async () => {
    const created = await addAccount({ username: 'zweimal', role: 'viewer' });
    const reset = await t.request({
      method: 'POST',
      url: `/api/accounts/${created.data.id}/password-reset`,
      as: t.admin,
    });
    expect(reset.statusCode).toBe(200);
    expectContract(PasswordResetResponseSchema, reset.json());
    expect((await setPassword(created.setPasswordToken!)).statusCode).toBe(400);
    expect((await setPassword(reset.json().setPasswordToken)).statusCode).toBe(200);
  });

  it('lists and reads accounts without any hash or token', async () => {
    const list = await t.request({ method: 'GET', url: '/api/accounts', as: t.admin });
    expect(list.statusCode).toBe(200);
    expectContract(AccountListResponseSchema, list.json());
    expect(list.body).not.toMatch(/argon2|passwordHash|tokenHash/);
    const one = await t.request({
      method: 'GET',
      url: `/api/accounts/${t.viewer.id}`,
      as: t.admin,
    });
    expectContract(AccountResponseSchema, one.json());
    expect(one.json().data.username).toBe(t.viewer.username);
    expectDirectoryError(
      await t.request({
        method: 'GET',
        url: '/api/accounts/0123456789abcdef01234567',
        as: t.admin,
      }),
      404,
      'Konto nicht gefunden',
    );
  });

  it('refuses a taken username (409), a handler account without a handler, and a handler id on other roles', async () => {
    const taken = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: { username: t.viewer.username.toUpperCase(), role: 'viewer' },
      as: t.admin,
    });
    expectDirectoryError(taken, 409, 'Ein Konto mit diesem Benutzernamen existiert bereits');
    const unbound = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: { username: 'ohne.hund', role: 'handler' },
      as: t.admin,
    });
    expectDirectoryError(unbound, 400, /braucht handlerId/);
    const missing = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: {
        username: 'falscher.hund',
        role: 'handler',
        handlerId: '0123456789abcdef01234567',
      },
      as: t.admin,
    });
    expectDirectoryError(missing, 400, /nennt keinen Hundeführer/);
    const handler = await createHandler(t);
    const viewerWithHandler = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: { username: 'sieht.alles', role: 'viewer', handlerId: handler._id },
      as: t.admin,
    });
    expectDirectoryError(viewerWithHandler, 400, /nur für Konten mit der Rolle handler/);
  });

  it('only admins manage accounts: a viewer gets 403, no token 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/accounts'],
      ['POST', '/api/accounts'],
      ['GET', `/api/accounts/${t.admin.id}`],
      ['PATCH', `/api/accounts/${t.admin.id}`],
      ['POST', `/api/accounts/${t.admin.id}/password-reset`],
    ] as const) {
      const payload = method === 'GET' ? undefined : { role: 'viewer', username: 'x.y.z' };
      expect((await t.request({ method, url, payload, as: t.viewer })).statusCode).toBe(403);
      expect((await t.request({ method, url, payload })).statusCode).toBe(401);
    }
  });
});

describe('the signed-in account', () => {
  it('GET /api/auth/me shows id, username, role and handlerId', async () => {
    const { handlerId, account } = await handlerAccount('hanna.hund');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', as: account });
    expect(me.statusCode).toBe(200);
    expectContract(MeResponseSchema, me.json());
    expect(me.json().data).toEqual({
      id: account.id,
      username: 'hanna.hund',
      role: 'handler',
      handlerId,
    });
    expect(me.headers['cache-control']).toBe('private, no-store');
  });

  it('PUT /api/auth/password needs the current password', async () => {
    const { account } = await handlerAccount('peter.passwort');
    const wrong = await t.request({
      method: 'PUT',
      url: '/api/auth/password',
      payload: { currentPassword: 'not my password at all', newPassword: 'a brand new passphrase' },
      as: account,
    });
    expectDirectoryError(wrong, 401, 'Benutzername oder Passwort falsch');
    const right = await t.request({
      method: 'PUT',
      url: '/api/auth/password',
      payload: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' },
      as: account,
    });
    expect(right.statusCode).toBe(200);
    expect(await t.login('peter.passwort', 'a brand new passphrase')).toEqual(expect.any(String));
    await expect(t.login('peter.passwort', PASSWORD)).rejects.toThrow(/401/);
  });
});

describe('a changed password ends the tokens signed before it', () => {
  const me = (token: string) =>
    t.request({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
  const ENDED = /Passwort des Kontos wurde seit dieser Anmeldung geändert/;

  it('changing it: every earlier token of the account is refused, the answer carries a working one', async () => {
    const { account } = await handlerAccount('gerda.geraet');
    const otherDevice = await t.login('gerda.geraet', PASSWORD);
    const res = await t.request({
      method: 'PUT',
      url: '/api/auth/password',
      payload: { currentPassword: PASSWORD, newPassword: 'a phone thief cannot stay' },
      as: account,
    });
    expect(res.statusCode).toBe(200);
    expectContract(PasswordChangedResponseSchema, res.json());
    const { token } = res.json<{ token: string }>();
    expectDirectoryError(await me(account.token), 401, ENDED);
    expectDirectoryError(await me(otherDevice), 401, ENDED);
    const fresh = await me(token);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().data.username).toBe('gerda.geraet');
    // Other accounts are untouched.
    expect((await me(t.viewer.token)).statusCode).toBe(200);
    // A wrong current password changes nothing: the new token keeps working.
    const wrong = await t.request({
      method: 'PUT',
      url: '/api/auth/password',
      payload: { currentPassword: PASSWORD, newPassword: 'another new passphrase' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
  });

  it('a reset leaves the tokens working until the new password is set with its link', async () => {
    const { account } = await handlerAccount('rudi.reset');
    const reset = await t.request({
      method: 'POST',
      url: `/api/accounts/${account.id}/password-reset`,
      as: t.admin,
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(account.token)).statusCode).toBe(200);
    const newPassword = 'set by the link again';
    expect((await setPassword(reset.json().setPasswordToken, newPassword)).statusCode).toBe(200);
    expectDirectoryError(await me(account.token), 401, ENDED);
    expect((await me(await t.login('rudi.reset', newPassword))).statusCode).toBe(200);
  });
});

describe('disabling and the last admin', () => {
  it('disabling an account ends its token at once', async () => {
    const { account } = await handlerAccount('bald.weg');
    expect((await t.request({ method: 'GET', url: '/api/auth/me', as: account })).statusCode).toBe(
      200,
    );
    const res = await t.request({
      method: 'PATCH',
      url: `/api/accounts/${account.id}`,
      payload: { disabled: true },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.disabled).toBe(true);
    const after = await t.request({ method: 'GET', url: '/api/auth/me', as: account });
    expectDirectoryError(after, 401, /deaktiviert/);
  });

  it('the last enabled admin can be neither disabled nor demoted; with a second admin it can', async () => {
    const app = await createTestApp();
    try {
      // The viewer is no admin: the test admin is the only one.
      for (const payload of [{ disabled: true }, { role: 'viewer' }]) {
        const res = await app.request({
          method: 'PATCH',
          url: `/api/accounts/${app.admin.id}`,
          payload,
          as: app.admin,
        });
        expectDirectoryError(res, 409, /letzte aktive Administratorkonto/);
      }
      const me = await app.request({ method: 'GET', url: '/api/auth/me', as: app.admin });
      expect(me.json().data.role).toBe('admin');
      const second = await app.request({
        method: 'POST',
        url: '/api/accounts',
        payload: { username: 'zweiter.admin', role: 'admin', password: PASSWORD },
        as: app.admin,
      });
      expect(second.statusCode).toBe(201);
      const demoted = await app.request({
        method: 'PATCH',
        url: `/api/accounts/${app.admin.id}`,
        payload: { role: 'viewer' },
        as: app.admin,
      });
      expect(demoted.statusCode).toBe(200);
      expect(demoted.json().data.role).toBe('viewer');
    } finally {
      await app.close();
    }
  });
});

describe('two admins demoting each other at once', () => {
  it('leaves an enabled admin whatever the order', async () => {
    const app = await createTestApp();
    try {
      const second = await app.request({
        method: 'POST',
        url: '/api/accounts',
        payload: { username: 'gleichzeitig', role: 'admin', password: PASSWORD },
        as: app.admin,
      });
      const secondAdmin = { ...app.admin, id: second.json().data.id as string };
      secondAdmin.token = await app.login('gleichzeitig', PASSWORD);
      const answers = await Promise.all([
        app.request({
          method: 'PATCH',
          url: `/api/accounts/${secondAdmin.id}`,
          payload: { role: 'viewer' },
          as: app.admin,
        }),
        app.request({
          method: 'PATCH',
          url: `/api/accounts/${app.admin.id}`,
          payload: { role: 'viewer' },
          as: secondAdmin,
        }),
      ]);
      // At most one succeeds: the other is 409 (the last admin) or 403 (its sender was demoted first).
      expect(answers.filter((res) => res.statusCode === 200).length).toBeLessThanOrEqual(1);
      expect(
        await app.app.db.admins.countDocuments({ role: 'admin', disabledAt: null }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });
});

describe('an account changed by two admins at once', () => {
  it('keeps both changes when one demotes it and the other disables it', async () => {
    const app = await createTestApp();
    try {
      // A second admin, so that neither change takes the last one away.
      await app.request({
        method: 'POST',
        url: '/api/accounts',
        payload: { username: 'zweite.admin', role: 'admin', password: PASSWORD },
        as: app.admin,
      });
      const secondAdmin = { ...app.admin, token: await app.login('zweite.admin', PASSWORD) };
      for (let round = 0; round < 5; round += 1) {
        const created = await app.request({
          method: 'POST',
          url: '/api/accounts',
          payload: { username: `doppelt.${round}`, role: 'admin', password: PASSWORD },
          as: app.admin,
        });
        const id = created.json<{ data: { id: string } }>().data.id;
        const answers = await Promise.all([
          app.request({
            method: 'PATCH',
            url: `/api/accounts/${id}`,
            payload: { role: 'viewer' },
            as: app.admin,
          }),
          app.request({
            method: 'PATCH',
            url: `/api/accounts/${id}`,
            payload: { disabled: true },
            as: secondAdmin,
          }),
        ]);
        expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
        const stored = await app.request({
          method: 'GET',
          url: `/api/accounts/${id}`,
          as: app.admin,
        });
        expect(stored.json().data).toMatchObject({ role: 'viewer', disabled: true });
      }
    } finally {
      await app.close();
    }
  });

  it('leaves a refused demotion of the last admin without a trace', async () => {
    const app = await createTestApp();
    try {
      const before = await app.app.db.admins.findById(app.admin.id).lean();
      const res = await app.request({
        method: 'PATCH',
        url: `/api/accounts/${app.admin.id}`,
        payload: { role: 'viewer', disabled: true },
        as: app.admin,
      });
      expect(res.statusCode).toBe(409);
      expect(await app.app.db.admins.findById(app.admin.id).lean()).toEqual(before);
    } finally {
      await app.close();
    }
  });
});

describe('self-service of a handler account', () => {
  let own: string;
  let other: string;
  let account: Account;

  beforeAll(async () => {
    ({ handlerId: own, account } = await handlerAccount('selma.selbst'));
    other = (await createHandler(t))._id;
  });

  it('reads its own record and sets its own availability and position', async () => {
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${own}`, as: account })).statusCode,
    ).toBe(200);
    const until = new Date(Date.now() + 2 * 3600_000).toISOString();
    const availability = await t.request({
      method: 'PUT',
      url: `/api/users/${own}/availability`,
      payload: { available: true, availableUntil: until },
      as: account,
    });
    expect(availability.statusCode).toBe(200);
    expect(availability.json().data.availableUntil).toBe(until);
    const gps = await t.request({
      method: 'PUT',
      url: `/api/users/${own}/gps`,
      payload: { lat: 52.5, lng: 13.4 },
      as: account,
    });
    expect(gps.statusCode).toBe(200);
    expect(gps.json().data.gps).toEqual({ lat: 52.5, lng: 13.4 });
  });

  it("answers 403 for another handler's record, availability and position, and changes nothing", async () => {
    const before = await t.request({ method: 'GET', url: `/api/users/${other}`, as: t.admin });
    for (const [method, url, payload] of [
      ['GET', `/api/users/${other}`, undefined],
      ['PUT', `/api/users/${other}/availability`, { available: false }],
      ['PUT', `/api/users/${other}/gps`, { lat: 1, lng: 1 }],
      ['GET', `/api/users/${other}/history`, undefined],
    ] as const) {
      const res = await t.request({ method, url, payload, as: account });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
    }
    const after = await t.request({ method: 'GET', url: `/api/users/${other}`, as: t.admin });
    expect(after.json()).toEqual(before.json());
  });

  it('answers 403 to create, update, delete, the admin list, the export and the history', async () => {
    for (const [method, url, payload] of [
      ['POST', '/api/users', { name: 'Neu', phone: '1' }],
      ['PUT', `/api/users/${own}`, { name: 'Umbenannt' }],
      ['DELETE', `/api/users/${own}`, undefined],
      ['GET', '/api/users', undefined],
      ['GET', '/api/users/export?format=csv', undefined],
      ['GET', `/api/users/${own}/history`, undefined],
      ['GET', '/api/accounts', undefined],
    ] as const) {
      const res = await t.request({ method, url, payload, as: account });
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 403 });
    }
    const mine = await t.request({ method: 'GET', url: `/api/users/${own}`, as: t.admin });
    expect(mine.json().data.name).not.toBe('Umbenannt');
  });

  it('a handler account rebound to another handler loses the first at once', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: `/api/accounts/${account.id}`,
      payload: { handlerId: other },
      as: t.admin,
    });
    expect(res.json().data.handlerId).toBe(other);
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${own}`, as: account })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${other}`, as: account })).statusCode,
    ).toBe(200);
  });

  it('a viewer writes nothing, not even availability', async () => {
    for (const [url, payload] of [
      [`/api/users/${own}/availability`, { available: false }],
      [`/api/users/${own}/gps`, { lat: 1, lng: 1 }],
    ] as const) {
      expect((await t.request({ method: 'PUT', url, payload, as: t.viewer })).statusCode).toBe(403);
    }
  });
});

describe('a handler account whose handler was deleted', () => {
  it('is told its entry was deleted on each of its requests; an admin still gets 404 not found', async () => {
    const { handlerId, account } = await handlerAccount('gerda.geloescht');
    expect(
      (await t.request({ method: 'DELETE', url: `/api/users/${handlerId}`, as: t.admin }))
        .statusCode,
    ).toBe(200);
    for (const [method, url, payload] of [
      ['GET', `/api/users/${handlerId}`, undefined],
      ['PUT', `/api/users/${handlerId}/availability`, { available: true }],
      ['PUT', `/api/users/${handlerId}/gps`, { lat: 52.5, lng: 13.4 }],
    ] as const) {
      const res = await t.request({ method, url, payload, as: account });
      expectDirectoryError(res, 404, MESSAGES.ownHandlerDeleted);
    }
    // The account itself still works and still names the record.
    const me = await t.request({ method: 'GET', url: '/api/auth/me', as: account });
    expect(me.json().data.handlerId).toBe(handlerId);
    expectDirectoryError(
      await t.request({ method: 'GET', url: `/api/users/${handlerId}`, as: t.admin }),
      404,
      MESSAGES.handlerNotFound,
    );
  });
});
