import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JWT_AUDIENCE, JWT_ISSUER } from '../src/plugins/auth.js';
import { createApiKey, registerApiKey, revokeApiKey } from '../src/modules/api-keys/service.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './support/app.js';
import { expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';

let t: TestApp;
let ann: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ann = await registerCustomer(t);
});
afterAll(() => t.close());

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT built by hand, so every part of it can be wrong on purpose. */
function craftToken(
  claims: Record<string, unknown>,
  opts: { secret?: string; alg?: 'HS256' | 'HS512' } = {},
): string {
  const alg = opts.alg ?? 'HS256';
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now, exp: now + 3600, ...claims };
  const signingInput = `${b64url({ alg, typ: 'JWT' })}.${b64url(payload)}`;
  const hmac = createHmac(alg === 'HS256' ? 'sha256' : 'sha512', opts.secret ?? TEST_JWT_SECRET);
  return `${signingInput}.${hmac.update(signingInput).digest('base64url')}`;
}

const claimsOf = (customer: RegisteredCustomer) => ({
  sub: String(customer.id),
  email: customer.email,
});

/** A bearer request without the API key: bearer operations do not need one. */
const profileWith = (headers: Record<string, string>, id = ann.id) =>
  t.app.inject({ method: 'GET', url: `/customers/${id}/profile`, headers });

describe('API key', () => {
  it('answers 401 on GET /products without an X-API-Key', async () => {
    expectShopError(
      await t.app.inject({ method: 'GET', url: '/products' }),
      401,
      /Missing API key/,
    );
  });

  it('answers 401 for an unknown key', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/products',
      headers: { 'x-api-key': 'shop_not-a-real-key' },
    });
    expectShopError(res, 401, /Invalid or revoked API key/);
  });

  it('answers 401 for a revoked key that worked before, once the key cache has expired', async () => {
    const cached = await createTestApp({ apiKeyCacheMs: 3_000 });
    try {
      const { key, info } = await createApiKey(cached.app.db, 'to revoke');
      const withKey = () =>
        cached.app.inject({ method: 'GET', url: '/products', headers: { 'x-api-key': key } });
      expect((await withKey()).statusCode).toBe(200);
      expect(await revokeApiKey(cached.app.db, info.id)).toBe(true);
      // Within the cache's lifetime the key is still trusted (no lookup per request) …
      expect((await withKey()).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3_100));
      // … after it, the revocation holds.
      expectShopError(await withKey(), 401, /Invalid or revoked API key/);
    } finally {
      await cached.close();
    }
  });

  it('does not remember unknown keys: a key created after a refusal works at once', async () => {
    const key = 'shop_registered-after-a-refusal-0123456789abcdef';
    const withKey = () =>
      t.app.inject({ method: 'GET', url: '/products', headers: { 'x-api-key': key } });
    expectShopError(await withKey(), 401, /Invalid or revoked API key/);
    await registerApiKey(t.app.db, 'late', key);
    expect((await withKey()).statusCode).toBe(200);
  });

  it('guards register and login too', async () => {
    const payload = { email: ann.email, password: ann.password };
    expectShopError(
      await t.app.inject({ method: 'POST', url: '/customers/login', payload }),
      401,
      /API key/,
    );
    expectShopError(
      await t.app.inject({
        method: 'POST',
        url: '/customers/register',
        payload: { ...payload, first_name: 'A', last_name: 'B' },
      }),
      401,
      /API key/,
    );
  });
});

describe('bearer token', () => {
  it('opens the profile with a valid token and no API key', async () => {
    expect((await profileWith(bearer(ann.token))).statusCode).toBe(200);
    expect((await profileWith(bearer(craftToken(claimsOf(ann))))).statusCode).toBe(200);
  });

  it('is not replaced by an API key', async () => {
    const res = await t.request({ method: 'GET', url: `/customers/${ann.id}/profile` });
    expectShopError(res, 401, /Missing bearer token/);
  });

  it('answers 401 without a token, on every bearer route', async () => {
    const routes = [
      { method: 'GET', url: `/customers/${ann.id}/profile` },
      { method: 'PUT', url: `/customers/${ann.id}/profile`, payload: { first_name: 'X' } },
      { method: 'POST', url: `/customers/${ann.id}/addresses`, payload: {} },
      { method: 'PUT', url: `/customers/${ann.id}/addresses/1`, payload: {} },
      { method: 'DELETE', url: `/customers/${ann.id}/addresses/1` },
    ] as const;
    for (const route of routes)
      expectShopError(await t.app.inject(route), 401, /Missing bearer token/);
  });

  it.each([
    ['garbage', 'Bearer garbage'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic YW5uOnNlY3JldA=='],
  ])('answers 401 for %s', async (_name, authorization) => {
    expectShopError(await profileWith({ authorization }), 401);
  });

  it('answers 401 for an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const res = await profileWith(
      bearer(craftToken({ ...claimsOf(ann), iat: past, exp: past + 3600 })),
    );
    expectShopError(res, 401, /Invalid or expired token/);
  });

  it('answers 401 for a token signed by the app that has run out', async () => {
    // Signed as if two minutes ago with a one-minute lifetime: no waiting, no clock races.
    const sign = (ago: number) =>
      t.app.jwt.sign(claimsOf(ann), { expiresIn: 60, clockTimestamp: Date.now() - ago });
    expect((await profileWith(bearer(sign(0)))).statusCode).toBe(200);
    expectShopError(await profileWith(bearer(sign(120_000))), 401, /Invalid or expired token/);
  });

  it('answers 401 for a tampered signature', async () => {
    const [header, payload, signature] = ann.token.split('.') as [string, string, string];
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expectShopError(
      await profileWith(bearer(`${header}.${payload}.${flipped}`)),
      401,
      /Invalid or expired token/,
    );
  });

  it('answers 401 for a tampered payload (another customer id under the original signature)', async () => {
    const bob = await registerCustomer(t);
    const [header, , signature] = ann.token.split('.') as [string, string, string];
    const now = Math.floor(Date.now() / 1000);
    const forged = b64url({
      ...claimsOf(bob),
      iss: JWT_ISSUER,
      aud: JWT_AUDIENCE,
      iat: now,
      exp: now + 3600,
    });
    expectShopError(await profileWith(bearer(`${header}.${forged}.${signature}`), bob.id), 401);
  });

  it('answers 401 for an unsigned alg:none token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      ...claimsOf(ann),
      iss: JWT_ISSUER,
      aud: JWT_AUDIENCE,
      iat: now,
      exp: now + 3600,
    };
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
    expectShopError(await profileWith(bearer(token)), 401, /Invalid or expired token/);
  });

  it('answers 401 for an algorithm other than HS256, even with the right secret', async () => {
    expectShopError(await profileWith(bearer(craftToken(claimsOf(ann), { alg: 'HS512' }))), 401);
  });

  it('answers 401 for a token signed with another secret', async () => {
    const token = craftToken(claimsOf(ann), {
      secret: 'another-secret-0123456789abcdef0123456789',
    });
    expectShopError(await profileWith(bearer(token)), 401, /Invalid or expired token/);
  });

  it('answers 401 for a wrong audience and for a wrong issuer', async () => {
    expectShopError(
      await profileWith(bearer(craftToken({ ...claimsOf(ann), aud: 'someone-else' }))),
      401,
    );
    expectShopError(
      await profileWith(bearer(craftToken({ ...claimsOf(ann), iss: 'someone-else' }))),
      401,
    );
  });

  it('answers 401 for a correctly signed token without issuer, audience or expiry', async () => {
    for (const missing of ['iss', 'aud', 'exp'] as const) {
      const claims: Record<string, unknown> = { ...claimsOf(ann), [missing]: undefined };
      const token = craftToken(claims);
      expect(
        JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()),
      ).not.toHaveProperty(missing);
      expectShopError(await profileWith(bearer(token)), 401, /Invalid or expired token/);
    }
  });

  it('answers 401 for a subject that is not a customer id', async () => {
    for (const sub of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expectShopError(await profileWith(bearer(craftToken({ sub, email: ann.email }))), 401);
    }
  });

  it('answers 401 for the token of a deleted customer', async () => {
    const gone = await registerCustomer(t);
    expect((await profileWith(bearer(gone.token), gone.id)).statusCode).toBe(200);
    await t.app.db.customer.delete({ where: { id: gone.id } });
    expectShopError(
      await profileWith(bearer(gone.token), gone.id),
      401,
      /Invalid or expired token/,
    );
  });

  it('authenticates before validating, so a bad path id without a token is still 401', async () => {
    expectShopError(await t.app.inject({ method: 'GET', url: '/customers/abc/profile' }), 401);
  });
});

describe('register and login rate limit', () => {
  let limited: TestApp;

  beforeAll(async () => {
    limited = await createTestApp({ authRateLimitPerMinute: 3 });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After in the envelope after 3 logins a minute', async () => {
    const payload = { email: 'nobody@example.com', password: 'whatever1' };
    for (let i = 0; i < 3; i++) {
      const res = await limited.request({ method: 'POST', url: '/customers/login', payload });
      expect(res.statusCode).toBe(401);
    }
    const res = await limited.request({ method: 'POST', url: '/customers/login', payload });
    expectShopError(res, 429, /Too many requests/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits registration on its own counter, and leaves other routes alone', async () => {
    const register = (n: number) =>
      limited.request({
        method: 'POST',
        url: '/customers/register',
        payload: {
          email: `r${n}@example.com`,
          password: 'a good password',
          first_name: 'R',
          last_name: 'L',
        },
      });
    for (let i = 0; i < 3; i++) expect((await register(i)).statusCode).toBe(201);
    const res = await register(3);
    expectShopError(res, 429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await limited.request({ method: 'GET', url: '/products' })).statusCode).toBe(200);
  });
});

describe('login failure limits', () => {
  const loginFrom = (app: TestApp, email: string, password: string, ip: string) =>
    app.request({
      method: 'POST',
      url: '/customers/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': ip },
    });

  it('answers 429 with Retry-After after the failures per e-mail and address, for known and unknown e-mails alike, without checking the password', async () => {
    const limited = await createTestApp({
      trustProxyHops: 1,
      loginMaxFailures: 3,
      accountLoginMaxFailures: 50,
      loginFailureWindowMs: 15 * 60_000,
    });
    try {
      const victim = await registerCustomer(limited, { password: 'the right password' });
      const unknown = 'nobody-here@example.com';
      const failures: string[] = [];
      for (let i = 0; i < 3; i++) {
        const wrong = await loginFrom(limited, victim.email, 'wrong password', '203.0.113.7');
        const missing = await loginFrom(limited, unknown, 'wrong password', '203.0.113.7');
        expectShopError(wrong, 401, /^Invalid email or password$/);
        failures.push(wrong.body, missing.body);
      }
      expect(new Set(failures).size).toBe(1);
      const known = await loginFrom(limited, victim.email, 'the right password', '203.0.113.7');
      const missing = await loginFrom(limited, unknown, 'the right password', '203.0.113.7');
      for (const res of [known, missing]) {
        expectShopError(res, 429, /^Too many failed logins, retry in \d+ seconds$/);
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(14 * 60);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
      // Same shape for a known and an unknown address: no account-existence oracle.
      expect(Object.keys(known.json()).sort()).toEqual(Object.keys(missing.json()).sort());
      expect(known.json().error.replace(/\d+/, 'N')).toBe(missing.json().error.replace(/\d+/, 'N'));
      // Another address is unaffected, and " E-Mail " spellings are one account.
      const other = await loginFrom(
        limited,
        ` ${victim.email.toUpperCase()} `,
        'the right password',
        '198.51.100.1',
      );
      expect(other.statusCode).toBe(200);
      expectShopError(
        await loginFrom(limited, victim.email.toUpperCase(), 'the right password', '203.0.113.7'),
        429,
      );
    } finally {
      await limited.close();
    }
  });

  it('forgets the failures of an address after a successful login from it', async () => {
    const limited = await createTestApp({ loginMaxFailures: 3, accountLoginMaxFailures: 50 });
    try {
      const victim = await registerCustomer(limited, { password: 'the right password' });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++)
          expect(
            (await loginFrom(limited, victim.email, 'nope nope', '127.0.0.1')).statusCode,
          ).toBe(401);
        expect(
          (await loginFrom(limited, victim.email, 'the right password', '127.0.0.1')).statusCode,
        ).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('answers 429 to every address once one e-mail has too many failures from all addresses together, until the window ends', async () => {
    const windowMs = 4_000;
    const limited = await createTestApp({
      trustProxyHops: 1,
      loginMaxFailures: 3,
      accountLoginMaxFailures: 4,
      loginFailureWindowMs: windowMs,
    });
    try {
      const victim = await registerCustomer(limited, { password: 'the right password' });
      const bystander = await registerCustomer(limited, { password: 'another password' });
      // Two failures from each of two addresses: below the per-address limit of 3 everywhere.
      for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2'])
        expectShopError(await loginFrom(limited, victim.email, 'wrong password', ip), 401);
      // A fresh address with the right password: refused without the password being checked.
      const res = await loginFrom(limited, victim.email, 'the right password', '198.51.100.9');
      expectShopError(res, 429, /^Too many failed logins/);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
      // Another account is not affected.
      expect(
        (await loginFrom(limited, bystander.email, 'another password', '198.51.100.9')).statusCode,
      ).toBe(200);
      // The owner is locked out for the window at most.
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
      expect(
        (await loginFrom(limited, victim.email, 'the right password', '198.51.100.9')).statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  }, 30_000);
});
