import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SuccessMessageSchema } from '@dogshop/contracts/common';
import { AddressResponseSchema } from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const validAddress = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Ann',
  last_name: 'Hunter',
  company: 'Kennel Ltd',
  address: 'Forest road 1',
  city: 'Berlin',
  postal_code: '10115',
  country: 'DE',
  phone: '+49 30 123',
  ...overrides,
});

const addAddress = (c: RegisteredCustomer, payload: Record<string, unknown>, token = c.token) =>
  t.app.inject({
    method: 'POST',
    url: `/customers/${c.id}/addresses`,
    headers: bearer(token),
    payload,
  });
const putAddress = (
  c: RegisteredCustomer,
  addressId: number,
  payload: Record<string, unknown>,
  token = c.token,
) =>
  t.app.inject({
    method: 'PUT',
    url: `/customers/${c.id}/addresses/${addressId}`,
    headers: bearer(token),
    payload,
  });
const deleteAddress = (c: RegisteredCustomer, addressId: number, token = c.token) =>
  t.app.inject({
    method: 'DELETE',
    url: `/customers/${c.id}/addresses/${addressId}`,
    headers: bearer(token),
  });
const addressesOf = async (c: RegisteredCustomer) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/customers/${c.id}/profile`,
      headers: bearer(c.token),
    })
  ).json().data.addresses as Array<{ id: number; city: string; is_default: boolean }>;
const defaults = async (c: RegisteredCustomer) =>
  (await addressesOf(c)).filter((a) => a.is_default).map((a) => a.id);

describe('POST /customers/:id/addresses', () => {
  it('adds an address, answering 201 with it, matching the contract', async () => {
    const ann = await registerCustomer(t);
    const res = await addAddress(ann, validAddress({ city: '  Potsdam ' }));
    expect(res.statusCode).toBe(201);
    expectContract(AddressResponseSchema, res.json());
    expect(res.json().data).toMatchObject({
      ...validAddress({ city: 'Potsdam' }),
      is_default: false,
    });
    expect(await addressesOf(ann)).toEqual([res.json().data]);
  });

  it('fills optional fields with empty strings', async () => {
    const ann = await registerCustomer(t);
    const { company: _c, phone: _p, ...required } = validAddress();
    const res = await addAddress(ann, required);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ company: '', phone: '', is_default: false });
  });

  it('keeps at most one default: a new default address clears the old one', async () => {
    const ann = await registerCustomer(t);
    const first = (await addAddress(ann, validAddress({ is_default: true }))).json().data.id;
    expect(await defaults(ann)).toEqual([first]);
    const second = (
      await addAddress(ann, validAddress({ city: 'Hamburg', is_default: true }))
    ).json().data.id;
    expect(await defaults(ann)).toEqual([second]);
    await addAddress(ann, validAddress({ city: 'Munich' }));
    expect(await defaults(ann)).toEqual([second]);
  });

  it('serialises concurrent default addresses: all are added, exactly one stays default', async () => {
    const ann = await registerCustomer(t);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        addAddress(ann, validAddress({ city: `City ${i}`, is_default: true })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array<number>(5).fill(201));
    expect(await addressesOf(ann)).toHaveLength(5);
    expect(await defaults(ann)).toHaveLength(1);
  });

  it('refuses the 21st address with 409', async () => {
    const ann = await registerCustomer(t);
    for (let i = 0; i < 20; i++)
      expect((await addAddress(ann, validAddress({ city: `City ${i}` }))).statusCode).toBe(201);
    expectShopError(await addAddress(ann, validAddress()), 409, /at most 20 addresses/);
    expect(await addressesOf(ann)).toHaveLength(20);
  });

  it("answers 403 for another customer's address book", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t);
    expectShopError(await addAddress(bob, validAddress(), ann.token), 403);
    expect(await addressesOf(bob)).toEqual([]);
  });

  it.each([
    ['a missing city', { city: undefined }, /city/],
    ['a blank address', { address: '  ' }, /body\.address must NOT have fewer than 1 characters/],
    ['an empty postal code', { postal_code: '' }, /postal_code/],
    ['a too long country', { country: 'x'.repeat(101) }, /country/],
    ['a numeric postal code', { postal_code: 10115 }, /postal_code/],
    ['a string is_default', { is_default: 'true' }, /is_default/],
    ['an unknown field', { street: 'Main' }, /unknown field 'street'/],
    ['a client-chosen id', { id: 5 }, /unknown field 'id'/],
  ])('answers 400 for %s', async (_name, overrides, message) => {
    const ann = await registerCustomer(t);
    const payload = JSON.parse(JSON.stringify(validAddress(overrides)));
    expectShopError(await addAddress(ann, payload), 400, message);
  });
});

describe('PUT /customers/:id/addresses/:addressId', () => {
  it('changes only the fields sent, answering 200 with the address', async () => {
    const ann = await registerCustomer(t);
    const created = (await addAddress(ann, validAddress())).json().data;
    const res = await putAddress(ann, created.id, { city: 'Leipzig', company: '' });
    expect(res.statusCode).toBe(200);
    expectContract(AddressResponseSchema, res.json());
    expect(res.json().data).toEqual({ ...created, city: 'Leipzig', company: '' });
  });

  it('switches the default to another address, leaving exactly one', async () => {
    const ann = await registerCustomer(t);
    const a = (await addAddress(ann, validAddress({ is_default: true }))).json().data.id;
    const b = (await addAddress(ann, validAddress({ city: 'Hamburg' }))).json().data.id;
    expect((await putAddress(ann, b, { is_default: true })).json().data.is_default).toBe(true);
    expect(await defaults(ann)).toEqual([b]);
    expect((await putAddress(ann, b, { is_default: true })).statusCode).toBe(200);
    expect(await defaults(ann)).toEqual([b]);
    expect((await putAddress(ann, b, { is_default: false })).statusCode).toBe(200);
    expect(await defaults(ann)).toEqual([]);
    expect((await putAddress(ann, a, { is_default: true })).statusCode).toBe(200);
    expect(await defaults(ann)).toEqual([a]);
  });

  it("answers 404 for another customer's address and changes nothing", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t);
    const bobs = (await addAddress(bob, validAddress({ city: 'Bonn' }))).json().data.id;
    expectShopError(
      await putAddress(ann, bobs, { city: 'Stolen' }),
      404,
      new RegExp(`Address ${bobs}`),
    );
    expect((await addressesOf(bob))[0]?.city).toBe('Bonn');
  });

  it('answers 404 for an address that does not exist', async () => {
    const ann = await registerCustomer(t);
    expectShopError(await putAddress(ann, 999_999, { city: 'X' }), 404);
  });

  it("answers 403 for another customer's path", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t);
    const bobs = (await addAddress(bob, validAddress())).json().data.id;
    expectShopError(await putAddress(bob, bobs, { city: 'X' }, ann.token), 403);
  });

  it.each([
    ['an empty body', {}, /fewer than 1/],
    [
      'a blank first name',
      { first_name: ' ' },
      /body\.first_name must NOT have fewer than 1 characters/,
    ],
    ['a null city', { city: null }, /city/],
    ['an unknown field', { zip: '1' }, /unknown field 'zip'/],
  ])('answers 400 for %s', async (_name, payload, message) => {
    const ann = await registerCustomer(t);
    const id = (await addAddress(ann, validAddress())).json().data.id;
    expectShopError(await putAddress(ann, id, payload), 400, message);
  });

  it('answers 400 for a non-integer address id', async () => {
    const ann = await registerCustomer(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/customers/${ann.id}/addresses/abc`,
      headers: bearer(ann.token),
      payload: { city: 'X' },
    });
    expectShopError(res, 400, /addressId/);
  });
});

describe('DELETE /customers/:id/addresses/:addressId', () => {
  it('deletes the address, answering the Success shape; deleting the default leaves none', async () => {
    const ann = await registerCustomer(t);
    const a = (await addAddress(ann, validAddress({ is_default: true }))).json().data.id;
    const b = (await addAddress(ann, validAddress({ city: 'Hamburg' }))).json().data.id;
    const res = await deleteAddress(ann, a);
    expect(res.statusCode).toBe(200);
    expectContract(SuccessMessageSchema, res.json());
    expect((await addressesOf(ann)).map((x) => x.id)).toEqual([b]);
    expect(await defaults(ann)).toEqual([]);
  });

  it('answers 404 when deleting twice', async () => {
    const ann = await registerCustomer(t);
    const a = (await addAddress(ann, validAddress())).json().data.id;
    expect((await deleteAddress(ann, a)).statusCode).toBe(200);
    expectShopError(await deleteAddress(ann, a), 404);
  });

  it("answers 404 for another customer's address and 403 for another customer's path", async () => {
    const ann = await registerCustomer(t);
    const bob = await registerCustomer(t);
    const bobs = (await addAddress(bob, validAddress())).json().data.id;
    expectShopError(await deleteAddress(ann, bobs), 404);
    expectShopError(await deleteAddress(bob, bobs, ann.token), 403);
    expect(await addressesOf(bob)).toHaveLength(1);
  });
});
