import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PublicHandlerListResponseSchema } from '@dogshop/contracts/handler-directory';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler, names } from './support/handlers.js';

let t: TestApp;

const BERLIN = { lat: 52.52, lng: 13.405 };
const HANDLERS = [
  { name: 'München Maier', gps: { lat: 48.1351, lng: 11.582 } }, // 504.4 km from Berlin
  { name: 'Hamburg Hansen', gps: { lat: 53.5511, lng: 9.9937 } }, // 255.3 km
  { name: 'Potsdam Pöhlke', gps: { lat: 52.3906, lng: 13.0645 } }, // 27.2 km
  { name: 'Ohne Position' },
  {
    name: 'Leipzig Lüders (nicht verfügbar)',
    available: false,
    gps: { lat: 51.3397, lng: 12.3731 },
  },
  { name: 'Fiji Fenton', gps: { lat: -16.5, lng: 179.9 } },
  { name: 'Samoa Schulz', gps: { lat: -16.5, lng: -179.9 } },
];

beforeAll(async () => {
  t = await createTestApp();
  for (const h of HANDLERS) await createHandler(t, h);
});
afterAll(() => t.close());

const publicList = (query = '') => t.request({ method: 'GET', url: `/api/public/users${query}` });

describe('GET /api/public/users', () => {
  it('lists only available handlers, by name, without a token, in the contract shape', async () => {
    const res = await publicList();
    expect(res.statusCode).toBe(200);
    expectContract(PublicHandlerListResponseSchema, res.json());
    expect(names(res.json())).toEqual([
      'Fiji Fenton',
      'Hamburg Hansen',
      'München Maier',
      'Ohne Position',
      'Potsdam Pöhlke',
      'Samoa Schulz',
    ]);
    expect(
      res.json().data.every((h: { distance_km?: number }) => h.distance_km === undefined),
    ).toBe(true);
  });

  it('moves a handler out of and back into the list as its availability changes', async () => {
    const handler = await createHandler(t, { name: 'Wechsel Wendt' });
    expect(names((await publicList()).json())).toContain('Wechsel Wendt');

    const off = await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}/availability`,
      payload: { available: false },
      as: t.admin,
    });
    expect(off.json().data.available).toBe(false);
    expect(names((await publicList()).json())).not.toContain('Wechsel Wendt');
    // Still in the admin list.
    expect(
      names((await t.request({ method: 'GET', url: '/api/users', as: t.viewer })).json()),
    ).toContain('Wechsel Wendt');

    await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}/availability`,
      payload: { available: true },
      as: t.admin,
    });
    expect(names((await publicList()).json())).toContain('Wechsel Wendt');

    // The full update can change it too.
    await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}`,
      payload: { available: false },
      as: t.admin,
    });
    expect(names((await publicList()).json())).not.toContain('Wechsel Wendt');
    await t.request({ method: 'DELETE', url: `/api/users/${handler._id}`, as: t.admin });
  });

  it('ignores a bearer token and answers 400 to unknown query parameters', async () => {
    const withToken = await t.request({ method: 'GET', url: '/api/public/users', as: t.admin });
    expect(withToken.statusCode).toBe(200);
    expectDirectoryError(await publicList('?available=false'), 400, /unbekanntes Feld 'available'/);
  });
});

describe('nearest handlers (lat/lng)', () => {
  it('orders available handlers with a position by distance, with distance_km to one decimal', async () => {
    const res = await publicList(`?lat=${BERLIN.lat}&lng=${BERLIN.lng}`);
    expect(res.statusCode).toBe(200);
    expectContract(PublicHandlerListResponseSchema, res.json());
    const data = res.json().data as Array<{ name: string; distance_km: number }>;
    expect(data.slice(0, 3).map((h) => [h.name, h.distance_km])).toEqual([
      ['Potsdam Pöhlke', 27.2],
      ['Hamburg Hansen', 255.3],
      ['München Maier', 504.4],
    ]);
    // Left out: no position, not available.
    expect(names(res.json())).not.toContain('Ohne Position');
    expect(names(res.json())).not.toContain('Leipzig Lüders (nicht verfügbar)');
    expect(data).toHaveLength(5);
  });

  it('limits the list to radius_km', async () => {
    const res = await publicList(`?lat=${BERLIN.lat}&lng=${BERLIN.lng}&radius_km=300`);
    expect(names(res.json())).toEqual(['Potsdam Pöhlke', 'Hamburg Hansen']);
    const none = await publicList(`?lat=${BERLIN.lat}&lng=${BERLIN.lng}&radius_km=1`);
    expect(none.json()).toEqual({ success: true, data: [] });
  });

  it('finds handlers across the antimeridian', async () => {
    const res = await publicList('?lat=-16.5&lng=-179.99&radius_km=100');
    const data = res.json().data as Array<{ name: string; distance_km: number }>;
    expect(data.map((h) => h.name)).toEqual(['Samoa Schulz', 'Fiji Fenton']);
    expect(data[0]!.distance_km).toBe(9.6);
    expect(data[1]!.distance_km).toBe(11.7);
  });

  it('accepts the coordinate edges', async () => {
    for (const query of ['?lat=90&lng=180', '?lat=-90&lng=-180', '?lat=0&lng=0&radius_km=20000']) {
      expect((await publicList(query)).statusCode).toBe(200);
    }
  });

  it.each([
    ['?lat=52.5', /lat und lng nur gemeinsam/],
    ['?lng=13.4', /lat und lng nur gemeinsam/],
    ['?radius_km=10', /radius_km nur zusammen mit lat und lng/],
    ['?lat=90.5&lng=0', /querystring\.lat/],
    ['?lat=-91&lng=0', /querystring\.lat/],
    ['?lat=0&lng=180.1', /querystring\.lng/],
    ['?lat=0&lng=-181', /querystring\.lng/],
    ['?lat=abc&lng=0', /querystring\.lat/],
    ['?lat=0&lng=0&radius_km=0', /querystring\.radius_km/],
    ['?lat=0&lng=0&radius_km=-5', /querystring\.radius_km/],
    ['?lat=0&lng=0&radius_km=20001', /querystring\.radius_km/],
  ])('answers 400 to %s', async (query, message) => {
    expectDirectoryError(await publicList(query), 400, message);
  });
});
