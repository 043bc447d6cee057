// Strict input: numbers in query strings only in plain decimal notation, validation messages in
// German throughout, U+0000 refused anywhere. Requests Node's HTTP parser refuses are answered in
// the directory's German envelope: service-kit.test.ts, the suite both services share.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MESSAGES } from '../src/messages.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';

let t: TestApp;
let handlerId: string;

beforeAll(async () => {
  t = await createTestApp();
  handlerId = (await createHandler(t, { name: 'Potsdam Pöhlke', gps: { lat: 52.39, lng: 13.06 } }))
    ._id;
});
afterAll(() => t?.close());

const publicList = (query: string) =>
  t.request({ method: 'GET', url: `/api/public/users?${query}` });

/** No English word of Ajv's or of the envelope may slip into a German message. */
const ENGLISH = /\b(must|should|have|property|properties|unknown|field|characters|equal)\b/;

describe('numbers in the query string', () => {
  it.each([
    ['lat=0x10&lng=0', 'lat'],
    ['lat=1e1&lng=0', 'lat'],
    ['lat=%2B52.5&lng=13', 'lat'],
    ['lat=052.5&lng=13', 'lat'],
    ['lat=%2052.5&lng=13', 'lat'],
    ['lat=52.&lng=13', 'lat'],
    ['lat=-0&lng=13', 'lat'],
    ['lat=52.5&lng=.5', 'lng'],
    ['lat=52.5&lng=13&radius_km=1e3', 'radius_km'],
    ['lat=52.5&lng=13&radius_km=0x10', 'radius_km'],
  ])('refuses ?%s with 400 in German naming the field', async (query, field) => {
    expectDirectoryError(
      await publicList(query),
      400,
      `Ungültige Anfrage: querystring.${field} muss eine Zahl in einfacher Dezimalschreibweise sein`,
    );
  });

  it('still reads plain decimals, negative ones included', async () => {
    const near = await publicList('lat=52.52&lng=13.405&radius_km=300');
    expect(near.statusCode).toBe(200);
    expect(near.json().data.map((h: { _id: string }) => h._id)).toContain(handlerId);
    expect((await publicList('lat=-16.5&lng=-179.9&radius_km=1')).json().data).toEqual([]);
  });
});

describe('validation messages', () => {
  it("are German throughout, Ajv's rules included", async () => {
    const cases: Array<[Promise<{ statusCode: number; json: () => unknown }>, string]> = [
      [
        publicList('lat=52.5&lng=13&radius_km=30000'),
        'Ungültige Anfrage: querystring.radius_km muss <= 20000 sein',
      ],
      [
        publicList('lat=52.5&lng=13&radius_km=1&radius_km=2'),
        'Ungültige Anfrage: querystring.radius_km muss sein: number',
      ],
      [publicList('near=1'), "Ungültige Anfrage: querystring: unbekanntes Feld 'near'"],
      [
        t.request({ method: 'POST', url: '/api/users', payload: { name: 'A' }, as: t.admin }),
        'Ungültige Anfrage: body.phone muss das erforderliche Attribut phone enthalten',
      ],
      [
        t.request({
          method: 'POST',
          url: '/api/users',
          payload: { name: 'A', phone: 5 },
          as: t.admin,
        }),
        'Ungültige Anfrage: body.phone muss sein: string',
      ],
    ];
    for (const [answer, message] of cases) {
      const res = await answer;
      expectDirectoryError(res, 400, message);
      expect((res.json() as { message: string }).message).not.toMatch(ENGLISH);
    }
  });
});

describe('U+0000', () => {
  const nul = (field: string) => MESSAGES.containsNul(field);

  it('is refused in created and updated handlers with 400 in German naming the field', async () => {
    const before = await t.app.db.handlers.countDocuments({});
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { name: 'Anna\u0000Admin', phone: '1' },
      as: t.admin,
    });
    expectDirectoryError(created, 400, nul('body.name'));
    expect(created.json().message).toBe(
      'Ungültige Anfrage: body.name darf das Zeichen U+0000 nicht enthalten',
    );
    for (const payload of [{ name: '\u0000' }, { address: 'Weg 1\u0000' }]) {
      const field = `body.${Object.keys(payload)[0]}`;
      expectDirectoryError(
        await t.request({ method: 'PUT', url: `/api/users/${handlerId}`, payload, as: t.admin }),
        400,
        nul(field),
      );
    }
    expect(await t.app.db.handlers.countDocuments({})).toBe(before);
    const stored = await t.request({ method: 'GET', url: `/api/users/${handlerId}`, as: t.admin });
    expect(stored.json().data.name).toBe('Potsdam Pöhlke');
  });

  it('is refused in the query string and the path', async () => {
    expectDirectoryError(await publicList('lat=52%00&lng=13'), 400, nul('querystring.lat'));
    expectDirectoryError(
      await t.request({ method: 'GET', url: '/api/users/export?format=csv%00', as: t.admin }),
      400,
      nul('querystring.format'),
    );
    expectDirectoryError(
      await t.request({ method: 'GET', url: `/api/users/${handlerId}%00`, as: t.admin }),
      400,
      nul('params.id'),
    );
  });
});
