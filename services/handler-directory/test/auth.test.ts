import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LoginResponseSchema } from '@dogshop/contracts/handler-directory';
import { createAccount, disableAccount } from '../src/modules/accounts/service.js';
import { ADMIN, createTestApp, TEST_JWT_SECRET, VIEWER, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';
import { bearer, claims, forgeToken } from './support/tokens.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });
const listWith = (token: string) =>
  t.request({ method: 'GET', url: '/api/users', headers: bearer(token) });

const decode = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('POST /api/auth/login', () => {
  it('returns a token and the account in the contract shape', async () => {
    const res = await login(ADMIN);
    expect(res.statusCode).toBe(200);
    expectContract(LoginResponseSchema, res.json());
    expect(res.json().user).toEqual({ id: t.admin.id, username: ADMIN.username, role: 'admin' });
    expect((await listWith(res.json().token)).statusCode).toBe(200);
  });

  it('issues HS256 tokens with subject, username, role, issuer, audience and an 8-hour default', async () => {
    const { token } = (await login(ADMIN)).json();
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const payload = decode(token);
    expect(payload).toMatchObject({
      sub: t.admin.id,
      username: ADMIN.username,
      role: 'admin',
      iss: 'dogshop-handler-directory',
      aud: 'dogshop-handler-directory-admins',
    });
    // The test app runs with JWT_TTL=1h.
    expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
  });

  it('accepts the username in any case and with surrounding spaces', async () => {
    expect((await login({ username: '  ANNA.Admin ', password: ADMIN.password })).statusCode).toBe(
      200,
    );
  });

  it('answers the same 401 for an unknown user and a wrong password', async () => {
    const unknown = await login({ username: 'niemand', password: ADMIN.password });
    const wrong = await login({ username: ADMIN.username, password: 'wrong-password-123' });
    expectDirectoryError(unknown, 401, 'Benutzername oder Passwort falsch');
    expectDirectoryError(wrong, 401, 'Benutzername oder Passwort falsch');
    expect(unknown.body).toBe(wrong.body);
  });

  it.each([
    [{ username: { $ne: null }, password: { $ne: null } }],
    [{ username: { $ne: null }, password: 'x' }],
    [{ username: ADMIN.username, password: { $gt: '' } }],
    [{ username: ['anna.admin'], password: 'x' }],
    [{ username: ADMIN.username, password: 12345678 }],
    [{ username: ADMIN.username }],
    [{ password: 'x' }],
    [{ username: '', password: 'x' }],
    [{ username: ADMIN.username, password: ADMIN.password, role: 'admin' }],
    [{ username: ADMIN.username, password: ADMIN.password, $where: '1' }],
  ])('answers 400 to the injection-shaped or malformed body %j', async (payload) => {
    expectDirectoryError(await login(payload), 400, /^Ungültige Anfrage/);
  });

  it('refuses a disabled account with the same 401', async () => {
    await createAccount(t.app.db, { username: 'gesperrt', password: 'gesperrt-password-1' });
    await disableAccount(t.app.db, 'gesperrt');
    expectDirectoryError(
      await login({ username: 'gesperrt', password: 'gesperrt-password-1' }),
      401,
      'Benutzername oder Passwort falsch',
    );
  });
});

describe('login throttling', () => {
  it('answers 429 with Retry-After after 5 failures for one username and client, without checking the password', async () => {
    const fresh = await createTestApp({ loginMaxFailures: 5, loginFailureWindowMs: 15 * 60_000 });
    try {
      const attempt = (password: string, ip = '203.0.113.7', username = ADMIN.username) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password },
          remoteAddress: ip,
        });
      // Successful logins do not count.
      for (let i = 0; i < 3; i += 1) expect((await attempt(ADMIN.password)).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) expectDirectoryError(await attempt('wrong-password-xyz'), 401);
      const limited = await attempt(ADMIN.password);
      expectDirectoryError(limited, 429, /Zu viele fehlgeschlagene Anmeldeversuche/);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Case does not make a new username.
      expectDirectoryError(
        await attempt(ADMIN.password, '203.0.113.7', ADMIN.username.toUpperCase()),
        429,
      );
      // Another client, or another username from the same client, is unaffected.
      expect((await attempt(ADMIN.password, '198.51.100.1')).statusCode).toBe(200);
      expectDirectoryError(await attempt('x', '203.0.113.7', 'someone-else'), 401);
    } finally {
      await fresh.close();
    }
  });

  it('forgets earlier failures after a successful login', async () => {
    const fresh = await createTestApp({ loginMaxFailures: 3 });
    try {
      const attempt = (password: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: ADMIN.username, password },
        });
      for (let i = 0; i < 2; i += 1) expect((await attempt('nope-nope-nope')).statusCode).toBe(401);
      expect((await attempt(ADMIN.password)).statusCode).toBe(200);
      for (let i = 0; i < 2; i += 1) expect((await attempt('nope-nope-nope')).statusCode).toBe(401);
      expect((await attempt(ADMIN.password)).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('answers 429 to every address once one username has too many failures from all addresses together, until the window ends', async () => {
    const windowMs = 4_000;
    const fresh = await createTestApp({
      trustProxyHops: 1,
      loginMaxFailures: 3,
      accountLoginMaxFailures: 4,
      loginFailureWindowMs: windowMs,
    });
    try {
      const attempt = (password: string, ip: string, username = ADMIN.username) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password },
          headers: { 'x-forwarded-for': ip },
        });
      // Two failures from each of two addresses: below the per-address limit of 3 everywhere.
      for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2'])
        expectDirectoryError(await attempt('wrong-password-xyz', ip), 401);
      // A fresh address with the right password: refused without the password being checked.
      const limited = await attempt(ADMIN.password, '198.51.100.9');
      expectDirectoryError(limited, 429, /Zu viele fehlgeschlagene Anmeldeversuche/);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
      expectDirectoryError(await attempt(ADMIN.password, '203.0.113.1'), 429);
      // Another account is not affected.
      expect((await attempt(VIEWER.password, '198.51.100.9', VIEWER.username)).statusCode).toBe(
        200,
      );
      // The owner is locked out for the window at most.
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
      expect((await attempt(ADMIN.password, '198.51.100.9')).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  }, 30_000);

  it('counts failures per address and username across addresses by the client address behind a trusted proxy', async () => {
    const fresh = await createTestApp({
      trustProxyHops: 1,
      loginMaxFailures: 2,
      accountLoginMaxFailures: 50,
    });
    try {
      const attempt = (password: string, ip: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: ADMIN.username, password },
          headers: { 'x-forwarded-for': ip },
        });
      for (let i = 0; i < 2; i += 1)
        expectDirectoryError(await attempt('wrong-password-xyz', '203.0.113.5'), 401);
      expectDirectoryError(await attempt(ADMIN.password, '203.0.113.5'), 429);
      expect((await attempt(ADMIN.password, '203.0.113.6')).statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('limits login requests per client and minute regardless of username', async () => {
    const fresh = await createTestApp({ authRateLimitPerMinute: 2 });
    try {
      const attempt = (username: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password: 'x' },
        });
      await attempt('a');
      await attempt('b');
      const res = await attempt('c');
      expectDirectoryError(res, 429, 'Zu viele Anfragen, bitte später erneut versuchen');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});

describe('bearer tokens', () => {
  it('accepts a token the service issued', async () => {
    expect((await listWith(t.admin.token)).statusCode).toBe(200);
  });

  it('answers 401 without a token, or with a non-Bearer or garbage header', async () => {
    expectDirectoryError(
      await t.request({ method: 'GET', url: '/api/users' }),
      401,
      'Nicht angemeldet: Bearer-Token fehlt',
    );
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Bearer garbage',
      'Basic YWRtaW46YWRtaW4=',
      'Bearer a.b.c',
      t.admin.token,
    ]) {
      const res = await t.request({ method: 'GET', url: '/api/users', headers: { authorization } });
      expectDirectoryError(res, 401, /Nicht angemeldet/);
    }
  });

  it.each([
    ['expired', () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { iat: 1_000, exp: 2_000 }))],
    [
      'signed with another secret',
      () => forgeToken('another-secret-0123456789abcdef0123', claims(t.admin.id)),
    ],
    [
      'tampered after signing',
      () => {
        const [h, , s] = t.admin.token.split('.');
        const payload = Buffer.from(
          JSON.stringify({ ...decode(t.admin.token), sub: t.viewer.id }),
        ).toString('base64url');
        return `${h}.${payload}.${s}`;
      },
    ],
    [
      'alg none',
      () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id), { alg: 'none', typ: 'JWT' }),
    ],
    ['HS512', () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id), { alg: 'HS512', typ: 'JWT' })],
    [
      'from another issuer',
      () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { iss: 'dogshop-shop' })),
    ],
    [
      'for another audience',
      () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { aud: 'dogshop-shop-customers' })),
    ],
    [
      'without issuer and audience',
      () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { iss: undefined, aud: undefined })),
    ],
    ['without expiry', () => forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { exp: undefined }))],
    [
      'not yet valid',
      () =>
        forgeToken(
          TEST_JWT_SECRET,
          claims(t.admin.id, { nbf: Math.floor(Date.now() / 1000) + 3600 }),
        ),
    ],
  ])('answers 401 to a token %s', async (_label, token) => {
    expectDirectoryError(
      await listWith(token()),
      401,
      'Nicht angemeldet: Token ungültig oder abgelaufen',
    );
  });

  it('answers 401 to a well-signed token naming no account', async () => {
    for (const sub of ['0123456789abcdef01234567', 'not-an-id', 42]) {
      const res = await listWith(forgeToken(TEST_JWT_SECRET, claims(sub as string)));
      expectDirectoryError(res, 401, /Nicht angemeldet/);
    }
  });

  it('ends the still-unexpired tokens of a disabled account at once', async () => {
    await createAccount(t.app.db, { username: 'bald.gesperrt', password: 'bald-gesperrt-123' });
    const token = await t.login('bald.gesperrt', 'bald-gesperrt-123');
    expect((await listWith(token)).statusCode).toBe(200);
    await disableAccount(t.app.db, 'bald.gesperrt');
    expectDirectoryError(
      await listWith(token),
      401,
      'Nicht angemeldet: Konto existiert nicht mehr oder ist deaktiviert',
    );
  });

  it('ends the tokens of a deleted account', async () => {
    const gone = await createAccount(t.app.db, {
      username: 'geloescht',
      password: 'geloescht-pass-123',
    });
    const token = await t.login('geloescht', 'geloescht-pass-123');
    await t.app.db.admins.deleteOne({ username: 'geloescht' });
    expect(gone.id).toMatch(/^[0-9a-f]{24}$/);
    expectDirectoryError(await listWith(token), 401, /Konto existiert nicht mehr/);
  });

  it('decides by the account’s current role, not the role in the token', async () => {
    const forgedAdmin = forgeToken(
      TEST_JWT_SECRET,
      claims(t.viewer.id, { role: 'admin', username: 'viktor.viewer' }),
    );
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'X', phone: '1' },
      headers: bearer(forgedAdmin),
    });
    expectDirectoryError(res, 403, /Keine Berechtigung/);
  });
});

describe('Cache-Control', () => {
  it('is private, no-store on login and on every admin-area answer, errors included', async () => {
    const handler = await createHandler(t);
    const answers = [
      await login(ADMIN),
      await login({ username: ADMIN.username, password: 'wrong-password-123' }),
      await t.request({ method: 'GET', url: '/api/users', as: t.viewer }),
      await t.request({ method: 'GET', url: `/api/users/${handler._id}`, as: t.viewer }),
      await t.request({
        method: 'PUT',
        url: `/api/users/${handler._id}`,
        payload: { phone: '+49 30 654321' },
        as: t.admin,
      }),
      await t.request({ method: 'GET', url: '/api/users' }),
    ];
    expect(answers.map((res) => [res.statusCode, res.headers['cache-control']])).toEqual([
      [200, 'private, no-store'],
      [401, 'private, no-store'],
      [200, 'private, no-store'],
      [200, 'private, no-store'],
      [200, 'private, no-store'],
      [401, 'private, no-store'],
    ]);
  });

  it('is not no-store on the public list', async () => {
    const res = await t.request({ method: 'GET', url: '/api/public/users' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control'] ?? '').not.toMatch(/no-store/);
  });
});
