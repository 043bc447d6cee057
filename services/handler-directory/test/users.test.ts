import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DeleteHandlerResponseSchema,
  HandlerListResponseSchema,
  HandlerResponseSchema,
} from '@dogshop/contracts/handler-directory';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler, names } from './support/handlers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NOT_FOUND = 'Hundeführer nicht gefunden';
const MISSING_ID = '0123456789abcdef01234567';

describe('POST /api/users', () => {
  it('creates a handler with every field and answers 201 in the contract shape', async () => {
    const body = {
      name: 'Jürgen Größmann',
      address: 'Forsthaus 3, 29633 Munster',
      phone: '+49 5192 123456',
      type: 'SW',
      available: false,
      gps: { lat: 52.9866, lng: 10.0869 },
    };
    const res = await t.request({ method: 'POST', url: '/api/users', payload: body, as: t.admin });
    expect(res.statusCode).toBe(201);
    expectContract(HandlerResponseSchema, res.json());
    const data = res.json().data;
    expect(data).toMatchObject(body);
    expect(data._id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(data.updatedAt).toBe(data.createdAt);
    expect(data).not.toHaveProperty('nameSort');
    expect(data).not.toHaveProperty('__v');
  });

  it('needs only name and phone; available defaults to true; text is trimmed', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: '  Änne Köhler  ', phone: ' 0171 1234 ' },
      as: t.admin,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Änne Köhler',
      phone: '0171 1234',
      available: true,
    });
    expect(res.json().data).not.toHaveProperty('gps');
    expect(res.json().data).not.toHaveProperty('address');
  });

  it('ignores read-only fields sent back', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: {
        _id: 'ffffffffffffffffffffffff',
        createdAt: '2000-01-01T00:00:00.000Z',
        updatedAt: { $gt: '' },
        __v: 7,
        name: 'Kopie',
        phone: '1',
      },
      as: t.admin,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data._id).not.toBe('ffffffffffffffffffffffff');
    expect(res.json().data.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it.each([
    ['a missing name', { phone: '1' }, /body\.name/],
    [
      'a blank name',
      { name: '   ', phone: '1' },
      /body\.name darf nicht kürzer als 1 Zeichen sein/,
    ],
    ['a name over 200 characters', { name: 'x'.repeat(201), phone: '1' }, /body\.name/],
    ['a missing phone', { name: 'A' }, /body\.phone/],
    ['a phone over 50 characters', { name: 'A', phone: '1'.repeat(51) }, /body\.phone/],
    [
      'an address over 300 characters',
      { name: 'A', phone: '1', address: 'x'.repeat(301) },
      /body\.address/,
    ],
    ['a type over 50 characters', { name: 'A', phone: '1', type: 'x'.repeat(51) }, /body\.type/],
    ['a non-boolean available', { name: 'A', phone: '1', available: 'yes' }, /body\.available/],
    ['a number as name', { name: 42, phone: '1' }, /body\.name/],
    ['gps without lng', { name: 'A', phone: '1', gps: { lat: 1 } }, /body\.gps/],
    ['latitude above 90', { name: 'A', phone: '1', gps: { lat: 90.1, lng: 0 } }, /body\.gps/],
    ['longitude below -180', { name: 'A', phone: '1', gps: { lat: 0, lng: -180.5 } }, /body\.gps/],
    ['a coordinate as text', { name: 'A', phone: '1', gps: { lat: '1', lng: 2 } }, /body\.gps/],
    ['an unknown field', { name: 'A', phone: '1', email: 'a@b.de' }, /unbekanntes Feld 'email'/],
  ])('answers 400 in German for %s', async (_label, payload, message) => {
    const res = await t.request({ method: 'POST', url: '/api/users', payload, as: t.admin });
    expectDirectoryError(res, 400, message);
    expect(res.json().message).toMatch(/^Ungültige Anfrage: /);
  });

  it('refuses $-prefixed and dotted keys anywhere, and nothing reaches the database', async () => {
    const before = await t.app.db.handlers.countDocuments({});
    const bodies = [
      { name: 'A', phone: '1', $where: 'sleep(1000)' },
      { name: 'A', phone: '1', 'gps.lat': 1 },
      { name: { $ne: null }, phone: '1' },
      { name: 'A', phone: '1', gps: { lat: 1, lng: 2, $set: { available: false } } },
      { name: 'A', phone: '1', gps: { lat: { $gt: 0 }, lng: 2 } },
      { name: 'A', phone: '1', gps: { 'lat.x': 1, lng: 2 } },
    ];
    for (const payload of bodies) {
      expectDirectoryError(
        await t.request({ method: 'POST', url: '/api/users', payload, as: t.admin }),
        400,
      );
    }
    expect(await t.app.db.handlers.countDocuments({})).toBe(before);
  });
});

describe('GET /api/users and /api/users/:id', () => {
  it('lists every handler, available or not, in German name order', async () => {
    const fresh = await createTestApp();
    try {
      for (const [name, available] of [
        ['Zeller', true],
        ['Öhler', false],
        ['ober', true],
        ['Ärger', false],
        ['Adler', true],
      ] as const) {
        await createHandler(fresh, { name, available });
      }
      const res = await fresh.request({ method: 'GET', url: '/api/users', as: fresh.viewer });
      expect(res.statusCode).toBe(200);
      expectContract(HandlerListResponseSchema, res.json());
      expect(names(res.json())).toEqual(['Adler', 'Ärger', 'ober', 'Öhler', 'Zeller']);
    } finally {
      await fresh.close();
    }
  });

  it('reads one handler (admin and viewer)', async () => {
    const created = await createHandler(t, { name: 'Lesbar' });
    for (const as of [t.admin, t.viewer]) {
      const res = await t.request({ method: 'GET', url: `/api/users/${created._id}`, as });
      expect(res.statusCode).toBe(200);
      expectContract(HandlerResponseSchema, res.json());
      expect(res.json().data).toEqual(created);
    }
  });

  it.each([MISSING_ID, 'abc', '12345', 'zzzzzzzzzzzzzzzzzzzzzzzz', '0123456789AB'])(
    'answers 404 for the id %s',
    async (id) => {
      expectDirectoryError(
        await t.request({ method: 'GET', url: `/api/users/${id}`, as: t.admin }),
        404,
        NOT_FOUND,
      );
    },
  );
});

describe('PUT /api/users/:id', () => {
  it('changes only the given fields and keeps the rest', async () => {
    const created = await createHandler(t, {
      name: 'Alt',
      address: 'Weg 1',
      type: 'SW',
      gps: { lat: 50, lng: 10 },
    });
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}`,
      payload: { name: 'Neu', phone: '999' },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expectContract(HandlerResponseSchema, res.json());
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'Neu',
      phone: '999',
      address: 'Weg 1',
      type: 'SW',
      gps: { lat: 50, lng: 10 },
    });
    expect(data.createdAt).toBe(created.createdAt);
    expect(Date.parse(data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
  });

  it('removes address, type and gps when given null', async () => {
    const created = await createHandler(t, {
      address: 'Weg 1',
      type: 'SW',
      gps: { lat: 50, lng: 10 },
    });
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}`,
      payload: { address: null, type: null, gps: null },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('address');
    expect(res.json().data).not.toHaveProperty('type');
    expect(res.json().data).not.toHaveProperty('gps');
  });

  it('accepts the full record sent back, read-only fields included', async () => {
    const created = await createHandler(t, { name: 'Rundreise' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}`,
      payload: { ...created, __v: 0, available: false },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Rundreise',
      available: false,
      _id: created._id,
    });
  });

  it('re-sorts a renamed handler', async () => {
    const fresh = await createTestApp();
    try {
      const a = await createHandler(fresh, { name: 'Anton' });
      await createHandler(fresh, { name: 'Berta' });
      await fresh.request({
        method: 'PUT',
        url: `/api/users/${a._id}`,
        payload: { name: 'Cäsar' },
        as: fresh.admin,
      });
      const res = await fresh.request({ method: 'GET', url: '/api/users', as: fresh.admin });
      expect(names(res.json())).toEqual(['Berta', 'Cäsar']);
    } finally {
      await fresh.close();
    }
  });

  it.each([
    ['an empty body', {}, /darf nicht weniger als 1 Attribut haben/],
    [
      'only read-only fields',
      { _id: MISSING_ID, createdAt: 'x' },
      /darf nicht weniger als 1 Attribut haben/,
    ],
    ['a blank name', { name: ' ' }, /body\.name/],
    ['a null name', { name: null }, /body\.name/],
    ['an unknown field', { nickname: 'x' }, /unbekanntes Feld 'nickname'/],
    ['an operator', { $set: { name: 'x' } }, /unbekanntes Feld '\$set'/],
    ['a dotted key', { 'gps.lat': 5 }, /unbekanntes Feld 'gps\.lat'/],
  ])('answers 400 for %s', async (_label, payload, message) => {
    const created = await createHandler(t);
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}`,
      payload,
      as: t.admin,
    });
    expectDirectoryError(res, 400, message);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of [MISSING_ID, 'nope']) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/${id}`,
        payload: { name: 'X' },
        as: t.admin,
      });
      expectDirectoryError(res, 404, NOT_FOUND);
    }
  });
});

describe('PUT /api/users/:id/availability and /gps', () => {
  it('sets availability', async () => {
    const created = await createHandler(t);
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}/availability`,
      payload: { available: false },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expectContract(HandlerResponseSchema, res.json());
    expect(res.json().data.available).toBe(false);
  });

  it('sets the GPS position', async () => {
    const created = await createHandler(t);
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}/gps`,
      payload: { lat: -33.8688, lng: 151.2093 },
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expectContract(HandlerResponseSchema, res.json());
    expect(res.json().data.gps).toEqual({ lat: -33.8688, lng: 151.2093 });
  });

  it.each([
    ['availability', { available: 'false' }],
    ['availability', {}],
    ['availability', { available: true, name: 'x' }],
    ['gps', { lat: 91, lng: 0 }],
    ['gps', { lat: 0 }],
    ['gps', { lat: 0, lng: 0, alt: 3 }],
    ['gps', { lat: { $gt: 0 }, lng: 0 }],
  ])('answers 400 for a bad %s body %j', async (path, payload) => {
    const created = await createHandler(t);
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${created._id}/${path}`,
      payload,
      as: t.admin,
    });
    expectDirectoryError(res, 400);
  });

  it('answers 404 for unknown ids', async () => {
    const a = await t.request({
      method: 'PUT',
      url: `/api/users/${MISSING_ID}/availability`,
      payload: { available: true },
      as: t.admin,
    });
    expectDirectoryError(a, 404, NOT_FOUND);
    const g = await t.request({
      method: 'PUT',
      url: `/api/users/x/gps`,
      payload: { lat: 1, lng: 1 },
      as: t.admin,
    });
    expectDirectoryError(g, 404, NOT_FOUND);
  });
});

describe('DELETE /api/users/:id', () => {
  it('deletes with the German message, then the handler is gone', async () => {
    const created = await createHandler(t);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/users/${created._id}`,
      as: t.admin,
    });
    expect(res.statusCode).toBe(200);
    expectContract(DeleteHandlerResponseSchema, res.json());
    expect(res.json()).toEqual({ success: true, message: 'Benutzer wurde gelöscht' });
    expectDirectoryError(
      await t.request({ method: 'GET', url: `/api/users/${created._id}`, as: t.admin }),
      404,
    );
    expectDirectoryError(
      await t.request({ method: 'DELETE', url: `/api/users/${created._id}`, as: t.admin }),
      404,
      NOT_FOUND,
    );
  });

  it('answers 404 for a malformed id', async () => {
    expectDirectoryError(
      await t.request({ method: 'DELETE', url: '/api/users/42', as: t.admin }),
      404,
      NOT_FOUND,
    );
  });
});

describe('roles', () => {
  it('lets a viewer read but answers 403 to every write, changing nothing', async () => {
    const created = await createHandler(t, { name: 'Geschützt' });
    const writes = [
      { method: 'POST' as const, url: '/api/users', payload: { name: 'X', phone: '1' } },
      { method: 'PUT' as const, url: `/api/users/${created._id}`, payload: { name: 'X' } },
      { method: 'DELETE' as const, url: `/api/users/${created._id}` },
      {
        method: 'PUT' as const,
        url: `/api/users/${created._id}/availability`,
        payload: { available: false },
      },
      { method: 'PUT' as const, url: `/api/users/${created._id}/gps`, payload: { lat: 1, lng: 1 } },
      // Even an invalid body: the role is checked before the body.
      { method: 'POST' as const, url: '/api/users', payload: { bogus: true } },
    ];
    for (const write of writes) {
      expectDirectoryError(await t.request({ ...write, as: t.viewer }), 403, /Keine Berechtigung/);
    }
    const after = await t.request({
      method: 'GET',
      url: `/api/users/${created._id}`,
      as: t.viewer,
    });
    expect(after.json().data).toEqual(created);
  });

  it('answers 401 to every protected operation without a token', async () => {
    const ops = [
      { method: 'GET' as const, url: '/api/users' },
      { method: 'GET' as const, url: `/api/users/${MISSING_ID}` },
      { method: 'POST' as const, url: '/api/users', payload: { name: 'X', phone: '1' } },
      { method: 'PUT' as const, url: `/api/users/${MISSING_ID}`, payload: { name: 'X' } },
      { method: 'DELETE' as const, url: `/api/users/${MISSING_ID}` },
      {
        method: 'PUT' as const,
        url: `/api/users/${MISSING_ID}/availability`,
        payload: { available: true },
      },
      { method: 'PUT' as const, url: `/api/users/${MISSING_ID}/gps`, payload: { lat: 1, lng: 1 } },
      { method: 'GET' as const, url: '/api/users/export' },
    ];
    for (const op of ops) expectDirectoryError(await t.request(op), 401, /Nicht angemeldet/);
  });
});
