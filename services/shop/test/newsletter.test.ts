import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SuccessMessageSchema } from '@dogshop/contracts/common';
import { SubscribeResponseSchema } from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectContract, expectShopError } from './support/contract.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await seedCatalogue(t.app);
});
afterAll(() => t.close());

let serial = 0;
const newEmail = () => `reader${++serial}@example.com`;

const subscribe = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/newsletter/subscribe', payload });
const unsubscribe = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/newsletter/unsubscribe', payload });
const row = (email: string) =>
  t.app.db.newsletterSubscriber.findUniqueOrThrow({ where: { email } });

describe('POST /newsletter/subscribe', () => {
  it('subscribes an address, answering 201 with the subscriber id, matching the contract', async () => {
    const email = newEmail();
    const res = await subscribe({
      email,
      first_name: ' Rita ',
      last_name: 'Reader',
      preferences: { categories: [ids.categoryId('Leads')], frequency: 'monthly' },
    });
    expect(res.statusCode).toBe(201);
    expectContract(SubscribeResponseSchema, res.json());
    expect(await row(email)).toMatchObject({
      id: res.json().data.subscriber_id,
      firstName: 'Rita',
      lastName: 'Reader',
      categoryIds: [ids.categoryId('Leads')],
      frequency: 'monthly',
      active: true,
      unsubscribedAt: null,
    });
  });

  it('defaults the frequency to weekly, with or without other preferences', async () => {
    const plain = newEmail();
    const withCategories = newEmail();
    expect((await subscribe({ email: plain })).statusCode).toBe(201);
    expect(
      (await subscribe({ email: withCategories, preferences: { categories: [] } })).statusCode,
    ).toBe(201);
    expect(await row(plain)).toMatchObject({
      frequency: 'weekly',
      categoryIds: [],
      firstName: '',
      lastName: '',
    });
    expect((await row(withCategories)).frequency).toBe('weekly');
  });

  it('stores the address trimmed and lower-cased', async () => {
    const res = await subscribe({ email: '  Mixed.Case@Example.COM ' });
    expect(res.statusCode).toBe(201);
    expect((await row('mixed.case@example.com')).id).toBe(res.json().data.subscriber_id);
  });

  it('answers 409 for an address that is already subscribed, in any spelling', async () => {
    const email = newEmail();
    expect((await subscribe({ email })).statusCode).toBe(201);
    expectShopError(await subscribe({ email }), 409, /already subscribed/);
    expectShopError(await subscribe({ email: email.toUpperCase() }), 409, /already subscribed/);
  });

  it('lets exactly one of concurrent identical subscriptions succeed', async () => {
    const email = newEmail();
    const results = await Promise.all(Array.from({ length: 5 }, () => subscribe({ email })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('deduplicates category ids', async () => {
    const email = newEmail();
    const leads = ids.categoryId('Leads');
    const optics = ids.categoryId('Optics');
    const res = await subscribe({
      email,
      preferences: { categories: [leads, optics, leads, leads] },
    });
    expect(res.statusCode).toBe(201);
    expect((await row(email)).categoryIds).toEqual([leads, optics]);
  });

  it('answers 400 naming every unknown or inactive category id, and stores nothing', async () => {
    const email = newEmail();
    const archive = ids.categoryId('Archive');
    const res = await subscribe({
      email,
      preferences: { categories: [ids.categoryId('Leads'), 999_998, archive, 999_998] },
    });
    expectShopError(
      res,
      400,
      new RegExp(`preferences\\.categories.*unknown category ids 999998, ${archive}$`),
    );
    expect(await t.app.db.newsletterSubscriber.count({ where: { email } })).toBe(0);
  });

  it.each([
    ['an invalid e-mail address', { email: 'not-an-email' }, /email/],
    ['a missing e-mail address', { first_name: 'A' }, /email/],
    ['an unknown field', { email: 'x@example.com', source: 'web' }, /unknown field 'source'/],
    [
      'an unknown preference',
      { email: 'x@example.com', preferences: { daily: true } },
      /unknown field 'preferences.daily'/,
    ],
    [
      'an unknown frequency',
      { email: 'x@example.com', preferences: { frequency: 'daily' } },
      /frequency/,
    ],
    [
      'a non-integer category',
      { email: 'x@example.com', preferences: { categories: ['1'] } },
      /categories/,
    ],
    [
      'a non-positive category',
      { email: 'x@example.com', preferences: { categories: [0] } },
      /categories/,
    ],
    ['a numeric first name', { email: 'x@example.com', first_name: 1 }, /first_name/],
  ])('answers 400 for %s', async (_name, payload, message) => {
    expectShopError(await subscribe(payload), 400, message);
  });
});

describe('POST /newsletter/unsubscribe', () => {
  it('unsubscribes with 200, keeps the record with the time, and answers 404 the second time', async () => {
    const email = newEmail();
    const id = (await subscribe({ email })).json().data.subscriber_id;
    const before = Date.now();
    const res = await unsubscribe({ email });
    expect(res.statusCode).toBe(200);
    expectContract(SuccessMessageSchema, res.json());
    const kept = await row(email);
    expect(kept).toMatchObject({ id, active: false });
    expect(kept.unsubscribedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expectShopError(await unsubscribe({ email }), 404, /not subscribed/);
  });

  it('answers 404 for an address that was never subscribed', async () => {
    expectShopError(await unsubscribe({ email: newEmail() }), 404, /not subscribed/);
  });

  it('re-activates a previously unsubscribed address with the same subscriber id and new preferences', async () => {
    const email = newEmail();
    const first = (await subscribe({ email, preferences: { frequency: 'monthly' } })).json().data
      .subscriber_id;
    expect((await unsubscribe({ email })).statusCode).toBe(200);
    const again = await subscribe({
      email,
      first_name: 'Back',
      preferences: { categories: [ids.categoryId('Optics')] },
    });
    expect(again.statusCode).toBe(201);
    expectContract(SubscribeResponseSchema, again.json());
    expect(again.json().data.subscriber_id).toBe(first);
    expect(await row(email)).toMatchObject({
      id: first,
      active: true,
      unsubscribedAt: null,
      firstName: 'Back',
      frequency: 'weekly',
      categoryIds: [ids.categoryId('Optics')],
    });
    expect(await t.app.db.newsletterSubscriber.count({ where: { email } })).toBe(1);
  });

  it.each([
    ['an invalid e-mail address', { email: 'nope' }, /email/],
    ['a missing e-mail address', {}, /email/],
    ['an unknown field', { email: 'x@example.com', reason: 'spam' }, /unknown field 'reason'/],
  ])('answers 400 for %s', async (_name, payload, message) => {
    expectShopError(await unsubscribe(payload), 400, message);
  });
});
