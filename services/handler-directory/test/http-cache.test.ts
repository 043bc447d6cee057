// HTTP caching of the public handler list: strong ETag, `public, max-age=5,
// stale-while-revalidate=30`, 304 on If-None-Match, and a new ETag as soon as a handler is added.
// The administrator's answers stay private, no-store.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';
import { createHandler, names } from './support/handlers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createHandler(t, { name: 'Erste Eva', gps: { lat: 52.52, lng: 13.405 } });
  await createHandler(t, { name: 'Zweiter Zacharias' });
});
afterAll(() => t.close());

const PUBLIC = 'public, max-age=5, stale-while-revalidate=30';
const STRONG_ETAG = /^"[A-Za-z0-9_-]{43}"$/;
const publicList = (query = '', headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: `/api/public/users${query}`, headers });

describe('GET /api/public/users caching', () => {
  it('carries a strong ETag and public, short Cache-Control, and answers 304 to it', async () => {
    for (const query of ['', '?lat=52.5&lng=13.4']) {
      const res = await publicList(query);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(STRONG_ETAG);
      expect(res.headers['cache-control']).toBe(PUBLIC);
      expect(res.headers['x-accel-expires']).toBe('@1'); // the gateway revalidates every use
      const again = await publicList(query, { 'if-none-match': res.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(res.headers.etag);
      expect(again.headers['cache-control']).toBe(PUBLIC);
    }
  });

  it('answers 200 with the new handler to the old ETag after a handler is created', async () => {
    const before = await publicList();
    const etag = before.headers.etag as string;
    await createHandler(t, { name: 'Dritte Dora' });
    const after = await publicList('', { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(names(after.json())).toContain('Dritte Dora');
    expect(after.headers.etag).toMatch(STRONG_ETAG);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('changes its ETag when a handler leaves the list', async () => {
    const handler = await createHandler(t, { name: 'Vierter Viktor' });
    const before = await publicList();
    const off = await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}/availability`,
      payload: { available: false },
      as: t.admin,
    });
    expect(off.statusCode).toBe(200);
    const after = await publicList('', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(names(after.json())).not.toContain('Vierter Viktor');
  });

  it('leaves the administrator’s answers private, no-store and without an ETag', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/users',
      as: t.admin,
      headers: { 'if-none-match': '*' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
  });
});
