import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SuccessMessageSchema } from '@dogshop/contracts/common';
import { AuthResponseSchema, ProfileResponseSchema } from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer } from './support/customers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let serial = 0;
const newEmail = () => `person${++serial}@example.com`;

const registration = (overrides: Record<string, unknown> = {}) => ({
  email: newEmail(),
  password: 'a good password',
  first_name: 'Ann',
  last_name: 'Hunter',
  ...overrides,
});

const register = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/customers/register', payload });
const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/customers/login', payload: { email, password } });
const getProfile = (id: number, token: string) =>
  t.app.inject({ method: 'GET', url: `/customers/${id}/profile`, headers: bearer(token) });
const putProfile = (id: number, token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/customers/${id}/profile`, headers: bearer(token), payload });
const subscriberRow = (email: string) =>
  t.app.db.newsletterSubscriber.findUnique({ where: { email } });

describe('POST /customers/register', () => {
  it('creates the account, logs it in and answers 201 matching the contract', async () => {
    const body = registration({ phone: '+49 170 1234567' });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    expectContract(AuthResponseSchema, res.json());
    const { data } = res.json();
    expect(data).toMatchObject({ email: body.email, first_name: 'Ann', last_name: 'Hunter' });
    expect(data.token.split('.')).toHaveLength(3);
    const row = await t.app.db.customer.findUniqueOrThrow({ where: { id: data.customer_id } });
    expect(row).toMatchObject({ phone: '+49 170 1234567', newsletter: false });
    expect(row.lastLogin).toBeInstanceOf(Date);
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await getProfile(data.customer_id, data.token)).statusCode).toBe(200);
  });

  it('trims and lower-cases the e-mail address, so the account logs in as ann@example.com', async () => {
    const res = await register(registration({ email: ' Ann@Example.COM ' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.email).toBe('ann@example.com');
    const ok = await login('ann@example.com', 'a good password');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.customer_id).toBe(res.json().data.customer_id);
    expect((await login(' ANN@example.com', 'a good password')).statusCode).toBe(200);
  });

  it('trims the names it stores', async () => {
    const res = await register(registration({ first_name: '  Bea ', last_name: ' Stone  ' }));
    expect(res.json().data).toMatchObject({ first_name: 'Bea', last_name: 'Stone' });
  });

  it('answers 409 for an address already registered, in any spelling', async () => {
    const email = newEmail();
    expect((await register(registration({ email }))).statusCode).toBe(201);
    expectShopError(await register(registration({ email })), 409, /already registered/);
    expectShopError(
      await register(registration({ email: ` ${email.toUpperCase()}` })),
      409,
      /already registered/,
    );
  });

  it('lets exactly one of 10 concurrent identical registrations succeed, the others get 409', async () => {
    const body = registration();
    const results = await Promise.all(Array.from({ length: 10 }, () => register(body)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const res of results.filter((r) => r.statusCode === 409))
      expectShopError(res, 409, /already registered/);
    expect(await t.app.db.customer.count({ where: { email: body.email } })).toBe(1);
  });

  it('refuses a 7-character password and accepts 8', async () => {
    expectShopError(await register(registration({ password: '1234567' })), 400, /password/);
    expect((await register(registration({ password: '12345678' }))).statusCode).toBe(201);
  });

  it('accepts a 128-character password and refuses 129', async () => {
    expect((await register(registration({ password: 'p'.repeat(128) }))).statusCode).toBe(201);
    expectShopError(await register(registration({ password: 'p'.repeat(129) })), 400, /password/);
  });

  it.each(['email', 'password', 'first_name', 'last_name'])(
    'answers 400 naming a missing %s',
    async (field) => {
      const body: Record<string, unknown> = registration();
      delete body[field];
      expectShopError(await register(body), 400, new RegExp(field));
    },
  );

  it('answers 400 for an unknown field', async () => {
    expectShopError(
      await register(registration({ is_admin: true })),
      400,
      /unknown field 'is_admin'/,
    );
  });

  it.each([
    ['email', 42],
    ['email', 'not-an-email'],
    ['password', 12345678],
    ['first_name', ['Ann']],
    ['last_name', null],
    ['phone', 491701234567],
    ['newsletter', 'yes'],
  ])('answers 400 when %s is %p', async (field, value) => {
    expectShopError(await register(registration({ [field]: value })), 400, new RegExp(field));
  });

  it('answers 400 for a blank name', async () => {
    expectShopError(
      await register(registration({ first_name: '   ' })),
      400,
      /body\.first_name must NOT have fewer than 1 characters/,
    );
  });

  it('subscribes the address to the newsletter with newsletter: true', async () => {
    const body = registration({ newsletter: true, first_name: 'Nina', last_name: 'Letter' });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    expect(await subscriberRow(body.email)).toMatchObject({
      active: true,
      firstName: 'Nina',
      lastName: 'Letter',
      unsubscribedAt: null,
    });
    const profile = await getProfile(res.json().data.customer_id, res.json().data.token);
    expect(profile.json().data.newsletter).toBe(true);
  });

  it('re-activates an earlier unsubscribed address when registering with newsletter: true', async () => {
    const email = newEmail();
    const first = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      payload: { email },
    });
    await t.request({ method: 'POST', url: '/newsletter/unsubscribe', payload: { email } });
    expect((await register(registration({ email, newsletter: true }))).statusCode).toBe(201);
    expect(await subscriberRow(email)).toMatchObject({
      id: first.json().data.subscriber_id,
      active: true,
      unsubscribedAt: null,
    });
  });

  it('shows an existing subscription in the flag of an account registered without newsletter', async () => {
    const email = newEmail();
    await t.request({ method: 'POST', url: '/newsletter/subscribe', payload: { email } });
    const res = await register(registration({ email }));
    expect(
      (await getProfile(res.json().data.customer_id, res.json().data.token)).json().data.newsletter,
    ).toBe(true);
    expect((await subscriberRow(email))?.active).toBe(true);
  });
});

describe('POST /customers/login', () => {
  it('answers 200 with a token matching the contract and updates last_login', async () => {
    const customer = await registerCustomer(t);
    const before = (await t.app.db.customer.findUniqueOrThrow({ where: { id: customer.id } }))
      .lastLogin!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const res = await login(customer.email, customer.password);
    expect(res.statusCode).toBe(200);
    expectContract(AuthResponseSchema, res.json());
    expect(res.json().data).toMatchObject({ customer_id: customer.id, email: customer.email });
    const after = (await t.app.db.customer.findUniqueOrThrow({ where: { id: customer.id } }))
      .lastLogin!;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    const profile = await getProfile(customer.id, res.json().data.token);
    expect(profile.json().data.last_login).toBe(after.toISOString());
  });

  it('answers the same 401 for a wrong password and for an unknown e-mail address', async () => {
    const customer = await registerCustomer(t);
    const wrongPassword = await login(customer.email, 'not the password');
    const unknownEmail = await login('nobody@example.com', customer.password);
    expectShopError(wrongPassword, 401, /^Invalid email or password$/);
    expectShopError(unknownEmail, 401, /^Invalid email or password$/);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.headers['www-authenticate']).toEqual(
      unknownEmail.headers['www-authenticate'],
    );
  });

  it('answers 400 for a missing password, an unknown field or a non-string e-mail', async () => {
    expectShopError(
      await t.request({ method: 'POST', url: '/customers/login', payload: { email: 'a@b.de' } }),
      400,
      /password/,
    );
    expectShopError(
      await t.request({
        method: 'POST',
        url: '/customers/login',
        payload: { email: 'a@b.de', password: 'x', remember: true },
      }),
      400,
      /unknown field 'remember'/,
    );
    expectShopError(
      await t.request({
        method: 'POST',
        url: '/customers/login',
        payload: { email: { $ne: '' }, password: 'x' },
      }),
      400,
      /email/,
    );
  });
});

describe('GET /customers/:id/profile', () => {
  it('shows the profile with its addresses, default first, matching the contract', async () => {
    const customer = await registerCustomer(t, { phone: '0301234' });
    const address = (city: string, isDefault: boolean) => ({
      first_name: 'Ann',
      last_name: 'Hunter',
      address: 'Forest road 1',
      city,
      postal_code: '12345',
      country: 'DE',
      is_default: isDefault,
    });
    for (const [city, isDefault] of [
      ['Berlin', false],
      ['Hamburg', true],
      ['Munich', false],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/customers/${customer.id}/addresses`,
        headers: bearer(customer.token),
        payload: address(city, isDefault),
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await getProfile(customer.id, customer.token);
    expect(res.statusCode).toBe(200);
    expectContract(ProfileResponseSchema, res.json());
    const { data } = res.json();
    expect(data).toMatchObject({
      id: customer.id,
      email: customer.email,
      phone: '0301234',
      newsletter: false,
    });
    expect(data.addresses.map((a: { city: string }) => a.city)).toEqual([
      'Hamburg',
      'Berlin',
      'Munich',
    ]);
    expect(data.addresses[0]).toMatchObject({ is_default: true, company: '', phone: '' });
  });

  it("answers 403 for another customer's profile, and for an id that names nobody", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t);
    expectShopError(await getProfile(bob.id, ann.token), 403);
    expectShopError(await getProfile(2_000_000_000, ann.token), 403);
  });

  it('answers 400 for a non-integer id', async () => {
    const ann = await registerCustomer(t);
    expectShopError(await getProfile('abc' as unknown as number, ann.token), 400, /id/);
  });
});

describe('PUT /customers/:id/profile', () => {
  it('changes only the fields sent and answers the Success shape', async () => {
    const customer = await registerCustomer(t, { phone: '111' });
    const res = await putProfile(customer.id, customer.token, {
      first_name: ' Annie ',
      phone: '222',
    });
    expect(res.statusCode).toBe(200);
    expectContract(SuccessMessageSchema, res.json());
    const { data } = (await getProfile(customer.id, customer.token)).json();
    expect(data).toMatchObject({
      first_name: 'Annie',
      last_name: 'Hunter',
      phone: '222',
      newsletter: false,
    });
  });

  it('subscribes with newsletter: true and unsubscribes with false, keeping the record', async () => {
    const customer = await registerCustomer(t, { first_name: 'Sue', last_name: 'Scriber' });
    expect((await putProfile(customer.id, customer.token, { newsletter: true })).statusCode).toBe(
      200,
    );
    const subscribed = await subscriberRow(customer.email);
    expect(subscribed).toMatchObject({ active: true, firstName: 'Sue', lastName: 'Scriber' });
    expect((await getProfile(customer.id, customer.token)).json().data.newsletter).toBe(true);

    expect((await putProfile(customer.id, customer.token, { newsletter: false })).statusCode).toBe(
      200,
    );
    const unsubscribed = await subscriberRow(customer.email);
    expect(unsubscribed).toMatchObject({ id: subscribed!.id, active: false });
    expect(unsubscribed!.unsubscribedAt).toBeInstanceOf(Date);
    expect((await getProfile(customer.id, customer.token)).json().data.newsletter).toBe(false);

    expect((await putProfile(customer.id, customer.token, { newsletter: true })).statusCode).toBe(
      200,
    );
    expect(await subscriberRow(customer.email)).toMatchObject({
      id: subscribed!.id,
      active: true,
      unsubscribedAt: null,
    });
  });

  it('follows the newsletter endpoints: unsubscribe clears the flag, subscribe sets it', async () => {
    const customer = await registerCustomer(t, { newsletter: true });
    const flag = async () => (await getProfile(customer.id, customer.token)).json().data.newsletter;
    expect(await flag()).toBe(true);
    const off = await t.request({
      method: 'POST',
      url: '/newsletter/unsubscribe',
      payload: { email: customer.email },
    });
    expect(off.statusCode).toBe(200);
    expect(await flag()).toBe(false);
    const on = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      payload: { email: customer.email },
    });
    expect(on.statusCode).toBe(201);
    expect(await flag()).toBe(true);
  });

  it("answers 403 for another customer's profile and changes nothing", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t, { first_name: 'Bob' });
    expectShopError(await putProfile(bob.id, ann.token, { first_name: 'Mallory' }), 403);
    expect((await getProfile(bob.id, bob.token)).json().data.first_name).toBe('Bob');
  });

  it.each([
    [{}, /body must NOT have fewer than 1 properties/],
    [{ email: 'new@example.com' }, /unknown field 'email'/],
    [{ password: 'a new password' }, /unknown field 'password'/],
    [{ first_name: '' }, /first_name/],
    [{ first_name: '   ' }, /body\.first_name must NOT have fewer than 1 characters/],
    [{ last_name: 'x'.repeat(101) }, /last_name/],
    [{ newsletter: 'true' }, /newsletter/],
    [{ phone: 123 }, /phone/],
  ])('answers 400 for %p', async (payload, message) => {
    const customer = await registerCustomer(t);
    expectShopError(await putProfile(customer.id, customer.token, payload), 400, message);
  });
});

describe('secrets', () => {
  it('never shows the password or its hash in a response', async () => {
    const password = 'my secret password';
    const reg = await register(registration({ password, newsletter: true }));
    const { customer_id: id, email, token } = reg.json().data;
    const { passwordHash } = await t.app.db.customer.findUniqueOrThrow({ where: { id } });
    const responses = [
      reg,
      await login(email, password),
      await putProfile(id, token, { phone: '999' }),
      await t.app.inject({
        method: 'POST',
        url: `/customers/${id}/addresses`,
        headers: bearer(token),
        payload: {
          first_name: 'A',
          last_name: 'B',
          address: 'C 1',
          city: 'D',
          postal_code: '1',
          country: 'DE',
        },
      }),
      await getProfile(id, token),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBeLessThan(300);
      const strings = jsonStrings(res.json());
      expect(strings.filter((s) => /password|argon2/i.test(s))).toEqual([]);
      expect(strings).not.toContain(password);
      expect(res.body).not.toContain(passwordHash);
    }
  });
});

/** Every key and string value of a JSON document. */
function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => [key, ...jsonStrings(v)]);
  }
  return [];
}
