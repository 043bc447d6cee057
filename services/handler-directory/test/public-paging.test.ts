// The public list in pages (`limit` + `cursor`, by name and nearest first), and the whole list
// served from the serialised copy every replica keeps until a handler is written: its ETag, its
// invalidation by every write, and two replicas on one database and one real Redis (also while
// that Redis is down).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PublicHandlerListResponseSchema } from '@dogshop/contracts/handler-directory';
import type { RedisServer } from '@dogshop/child-processes';
import { sleep } from '@dogshop/child-processes';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from './support/app.js';
import { startTwoReplicas, type TwoReplicas } from './support/replicas.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler, names } from './support/handlers.js';
import { bearer } from './support/tokens.js';

interface ListBody {
  success: true;
  data: Array<{ _id: string; name: string; distance_km?: number }>;
  next_cursor?: string;
}

const STRONG_ETAG = /^"[A-Za-z0-9_-]{43}"$/;
const sha256Etag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

/** Follows next_cursor from the first page to the last; every page checked against the contract. */
async function walk(app: FastifyInstance, query: string, limit: number) {
  const pages: ListBody[] = [];
  let cursor: string | undefined;
  do {
    const url = `/api/public/users?${query}${query ? '&' : ''}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await get(app, url);
    expect(res.statusCode).toBe(200);
    const body = res.json<ListBody>();
    expectContract(PublicHandlerListResponseSchema, body);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    pages.push(body);
    cursor = body.next_cursor;
    if (pages.length > 200) throw new Error('the cursor never ends');
  } while (cursor);
  return { pages, handlers: pages.flatMap((page) => page.data) };
}

const ids = (handlers: Array<{ _id: string }>) => handlers.map((h) => h._id);

describe('one replica', () => {
  let t: TestApp;
  const whole = () => get(t.app, '/api/public/users');

  beforeAll(async () => {
    t = await createTestApp();
    // Ties of the sort key (same name, or equal after case and umlaut folding) and of distance.
    const names = [
      'Müller',
      'Muller',
      'MÜLLER',
      'müller',
      'Anna Bergmann',
      'Zoe Zander',
      'Ärger Äbi',
      'Ober Otto',
      'Straße Sepp',
      'Strasse Sepp',
      'Éva Élan',
      'Bernd Bauer',
      'Nicht verfügbar',
    ];
    for (const [i, name] of names.entries()) {
      await createHandler(t, {
        name,
        available: name !== 'Nicht verfügbar',
        // Every third without a position; two pairs at the same place (equal distances).
        ...(i % 3 === 2 ? {} : { gps: { lat: 50 + (i % 5) * 0.5, lng: 10 + (i % 5) * 0.25 } }),
      });
    }
  });
  afterAll(() => t.close());

  it('walks the whole list by name in pages of any size, without gaps or repeats, and ends', async () => {
    const all = (await whole()).json<ListBody>();
    expect(all.data).toHaveLength(12);
    expect(all.next_cursor).toBeUndefined();
    for (const limit of [1, 2, 5, 11, 12, 13, 1000]) {
      const { pages, handlers } = await walk(t.app, '', limit);
      expect(ids(handlers)).toEqual(ids(all.data));
      expect(pages).toHaveLength(Math.max(1, Math.ceil(12 / limit)));
      expect(pages.at(-1)!.next_cursor).toBeUndefined();
      for (const page of pages.slice(0, -1)) expect(page.data).toHaveLength(limit);
    }
  });

  it('walks the nearest-first list the same way, with the point in every request', async () => {
    const query = 'lat=51&lng=10.5&radius_km=400';
    const all = (await get(t.app, `/api/public/users?${query}`)).json<ListBody>();
    expect(all.data.length).toBeGreaterThan(4);
    expect(all.next_cursor).toBeUndefined();
    for (const limit of [1, 2, 3, 1000]) {
      const { handlers } = await walk(t.app, query, limit);
      expect(handlers).toEqual(all.data);
    }
    // Equal distances are ordered by name key, then id: the same order the whole list gives.
    const distances = all.data.map((h) => h.distance_km!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    // limit alone: the nearest N.
    const nearest = (await get(t.app, `/api/public/users?${query}&limit=2`)).json<ListBody>();
    expect(nearest.data).toEqual(all.data.slice(0, 2));
  });

  it('neither repeats nor skips a handler when others are added or removed between pages', async () => {
    const first = (await get(t.app, '/api/public/users?limit=4')).json<ListBody>();
    // Before the cursor (sorts first), and after it.
    const early = await createHandler(t, { name: 'Aaron Anfang' });
    const late = await createHandler(t, { name: 'Zyklop Zuletzt' });
    // One of the next page is removed.
    const rest1 = (
      await get(t.app, `/api/public/users?limit=4&cursor=${first.next_cursor}`)
    ).json<ListBody>();
    const gone = rest1.data[0]!;
    await t.request({ method: 'DELETE', url: `/api/users/${gone._id}`, as: t.admin });
    const rest = await (async () => {
      const out = [...rest1.data.slice(1)];
      let cursor = rest1.next_cursor;
      while (cursor) {
        const page = (
          await get(t.app, `/api/public/users?limit=4&cursor=${cursor}`)
        ).json<ListBody>();
        out.push(...page.data);
        cursor = page.next_cursor;
      }
      return out;
    })();
    const seen = [...first.data, gone, ...rest].map((h) => h._id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(early._id); // sorted before the cursor: not on later pages
    expect(seen).toContain(late._id);
    // Every handler of the list now was seen, besides the one added before the cursor.
    const now = ids((await whole()).json<ListBody>().data);
    expect(now.filter((id) => id !== early._id).every((id) => seen.includes(id))).toBe(true);
  });

  it('answers without parameters exactly the list that the pages make up, as it always has', async () => {
    const res = await whole();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const { handlers } = await walk(t.app, '', 3);
    expect(res.rawPayload.toString()).toBe(JSON.stringify({ success: true, data: handlers }));
    expect(Object.keys(res.json<ListBody>())).toEqual(['success', 'data']);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
  });

  it.each([
    ['?limit=0', /querystring\.limit/],
    ['?limit=1001', /querystring\.limit/],
    ['?limit=1.5', /querystring\.limit/],
    ['?limit=1e2', /querystring\.limit/],
    ['?limit=abc', /querystring\.limit/],
    ['?cursor=WyJhIiwiNjY1ZjFjMmFiNGQzZThhMWMyZjBiMTIzIl0', /cursor nur zusammen mit limit/],
    ['?limit=5&cursor=', /querystring\.cursor/],
    ['?limit=5&cursor=kaputt!', /cursor ist kein Cursor dieser Liste/],
    // base64url of: `{}`, `["a"]`, `["a","xyz"]`, `[1,"a","665f…",0,"x"]`, not JSON
    ['?limit=5&cursor=e30', /cursor ist kein Cursor dieser Liste/],
    ['?limit=5&cursor=WyJhIl0', /cursor ist kein Cursor dieser Liste/],
    ['?limit=5&cursor=WyJhIiwieHl6Il0', /cursor ist kein Cursor dieser Liste/],
    [
      '?limit=5&cursor=WzEsImEiLCI2NjVmMWMyYWI0ZDNlOGExYzJmMGIxMjMiLDAsIngiXQ',
      /cursor ist kein Cursor dieser Liste/,
    ],
    ['?limit=5&cursor=bm9wZQ', /cursor ist kein Cursor dieser Liste/],
    // Not the canonical spelling of a cursor (padding).
    ['?limit=5&cursor=WyJhIiwiNjY1ZjFjMmFiNGQzZThhMWMyZjBiMTIzIl0=', /cursor ist kein Cursor/],
  ])('answers 400 in German to %s', async (query, message) => {
    expectDirectoryError(await get(t.app, `/api/public/users${query}`), 400, message);
  });

  it('answers 400 to a cursor of another order or another point', async () => {
    const byName = (await get(t.app, '/api/public/users?limit=2')).json<ListBody>().next_cursor!;
    const near = (await get(t.app, '/api/public/users?lat=51&lng=10&limit=2')).json<ListBody>()
      .next_cursor!;
    const other = /cursor gehört zu einer anderen Liste/;
    expectDirectoryError(
      await get(t.app, `/api/public/users?lat=51&lng=10&limit=2&cursor=${byName}`),
      400,
      other,
    );
    expectDirectoryError(await get(t.app, `/api/public/users?limit=2&cursor=${near}`), 400, other);
    expectDirectoryError(
      await get(t.app, `/api/public/users?lat=51&lng=10.1&limit=2&cursor=${near}`),
      400,
      other,
    );
    // The same point with another radius or page size is the same list.
    const res = await get(
      t.app,
      `/api/public/users?lat=51&lng=10&radius_km=500&limit=3&cursor=${near}`,
    );
    expect(res.statusCode).toBe(200);
  });

  describe('the kept whole list', () => {
    it('has a strong ETag of its bytes, the same on every request, and answers 304 to it', async () => {
      const first = await whole();
      const second = await whole();
      expect(first.headers.etag).toMatch(STRONG_ETAG);
      expect(first.headers.etag).toBe(sha256Etag(first.rawPayload));
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(first.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
      const again = await get(t.app, '/api/public/users', {
        'if-none-match': first.headers.etag as string,
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      // HEAD: the same ETag and length.
      const head = await t.app.inject({ method: 'HEAD', url: '/api/public/users' });
      expect(head.headers.etag).toBe(first.headers.etag);
      expect(head.headers['content-length']).toBe(String(first.rawPayload.length));
    });

    it('is what is sent: a write that bypasses the service is not seen until a write through it', async () => {
      const before = (await whole()).headers.etag;
      // Straight into the database, as an operator's shell would: no announcement.
      await t.app.db.handlers.create({ name: 'Hinter Rücken', phone: '1', available: true });
      expect((await whole()).headers.etag).toBe(before);
      expect(names((await whole()).json())).not.toContain('Hinter Rücken');
      // Pages are read per request.
      expect(names((await get(t.app, '/api/public/users?limit=1000')).json())).toContain(
        'Hinter Rücken',
      );
      const touched = await createHandler(t, { name: 'Vorne Vogel', available: false });
      expect(names((await whole()).json())).toContain('Hinter Rücken');
      await t.request({ method: 'DELETE', url: `/api/users/${touched._id}`, as: t.admin });
    });

    it('follows every kind of write at once: create, update, GPS, availability, delete', async () => {
      const etag = async () => {
        const res = await whole();
        expect(res.headers.etag).toBe(sha256Etag(res.rawPayload));
        return res.headers.etag as string;
      };
      const seen = [await etag()];
      const changed = async () => {
        const next = await etag();
        expect(seen).not.toContain(next);
        seen.push(next);
      };
      const handler = await createHandler(t, { name: 'Kette Karl', gps: { lat: 50, lng: 10 } });
      await changed();
      const as = t.admin;
      const write = async (method: 'PUT' | 'DELETE', url: string, payload?: object) => {
        const res = await t.request({ method, url, payload, as });
        expect(res.statusCode).toBe(200);
      };
      await write('PUT', `/api/users/${handler._id}`, { phone: '+49 1' });
      await changed();
      await write('PUT', `/api/users/${handler._id}/gps`, { lat: 51, lng: 11 });
      await changed();
      await write('PUT', `/api/users/${handler._id}/availability`, { available: false });
      // Out of the list: the list is the one before the create again, and so is its ETag.
      expect(await etag()).toBe(seen[0]);
      expect(names((await whole()).json())).not.toContain('Kette Karl');
      await write('PUT', `/api/users/${handler._id}/availability`, { available: true });
      await changed();
      await write('DELETE', `/api/users/${handler._id}`);
      expect(await etag()).toBe(seen[0]);
      expect(names((await whole()).json())).not.toContain('Kette Karl');
      // A refused write (404) changes nothing.
      const missing = await t.request({
        method: 'PUT',
        url: '/api/users/665f1c2ab4d3e8a1c2f0b999/availability',
        payload: { available: false },
        as,
      });
      expect(missing.statusCode).toBe(404);
      expect(await etag()).toBe(seen[0]);
    });
  });
});

describe('two replicas on one database and one Redis', () => {
  let replicas: TwoReplicas;
  let a: TestApp;
  let b: FastifyInstance;
  let redis: RedisServer;

  beforeAll(async () => {
    replicas = await startTwoReplicas();
    ({ a, b, redis } = replicas);
  });
  afterAll(() => replicas?.close());

  const list = (app: FastifyInstance) => get(app, '/api/public/users');
  const namesOn = async (app: FastifyInstance) => names((await list(app)).json());
  /** Pub/Sub delivers within milliseconds; the list's copy would otherwise live 60 s. */
  async function soon(condition: () => Promise<boolean>) {
    const end = Date.now() + 2_000;
    while (!(await condition())) {
      if (Date.now() > end) throw new Error('not within 2 s');
      await sleep(20);
    }
  }

  it('gives the same ETag on both for the same list', async () => {
    await createHandler(a, { name: 'Beide Berta' });
    await soon(async () => (await namesOn(b)).includes('Beide Berta'));
    const onA = await list(a.app);
    const onB = await list(b);
    expect(onB.headers.etag).toBe(onA.headers.etag);
    expect(onB.rawPayload.equals(onA.rawPayload)).toBe(true);
    const conditional = await get(b, '/api/public/users', {
      'if-none-match': onA.headers.etag as string,
    });
    expect(conditional.statusCode).toBe(304);
  });

  it('drops B’s kept list when a handler is written through A', async () => {
    const kept = await list(b); // B serves and keeps the list
    expect((await list(b)).headers.etag).toBe(kept.headers.etag);
    const created = await createHandler(a, { name: 'Neu über A' });
    await soon(async () => (await namesOn(b)).includes('Neu über A'));
    expect((await list(b)).headers.etag).not.toBe(kept.headers.etag);

    // A write through B is seen by A the same way.
    await list(a.app);
    const off = await b.inject({
      method: 'PUT',
      url: `/api/users/${created._id}/availability`,
      payload: { available: false },
      headers: bearer(a.admin.token),
    });
    expect(off.statusCode).toBe(200);
    // B's own copy is dropped before its answer.
    expect(await namesOn(b)).not.toContain('Neu über A');
    await soon(async () => !(await namesOn(a.app)).includes('Neu über A'));
  });

  it('reads through while Redis is down (a write is seen at once), and keeps again once it is back', async () => {
    await list(b);
    await redis.stop();
    await soon(async () => !b.publicList.keeping);
    // A's write cannot be announced: B, deaf, reads the database for every request.
    await createHandler(a, { name: 'Während Ausfall' });
    expect(await namesOn(b)).toContain('Während Ausfall');

    await redis.start();
    await soon(async () => a.app.publicList.keeping && b.publicList.keeping);
    await list(b);
    await createHandler(a, { name: 'Nach Ausfall' });
    await soon(async () => (await namesOn(b)).includes('Nach Ausfall'));
  }, 30_000);
});
