import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  CACHE_CONTROL,
  errorEnvelope,
  httpCache,
  ifNoneMatchMatches,
  routeAuth,
  strongEtag,
  unauthorized,
} from '../src/index.js';

async function build(register: (app: FastifyInstance) => void) {
  const app = Fastify();
  await app.register(errorEnvelope, { body: (status, message) => ({ status, message }) });
  await app.register(httpCache);
  await app.register(routeAuth, {
    schemes: {
      key: {
        check: async (request: FastifyRequest) => {
          if (request.headers['x-key'] !== 'open sesame') throw unauthorized('no key');
        },
        security: [],
      },
    },
  });
  register(app);
  await app.ready();
  return app;
}

const key = { 'x-key': 'open sesame' };
let catalogue = { success: true, data: [{ id: 1, name: 'Leash' }] };

const app = () =>
  build((app) => {
    app.get('/catalogue', { config: { auth: 'key', cache: 'private' } }, async () => catalogue);
    app.get('/public', { config: { auth: 'none', cache: 'public' } }, async () => catalogue);
    app.get('/plain', { config: { auth: 'none' } }, async () => catalogue);
    app.get('/profile', { config: { auth: 'key', personal: true } }, async () => catalogue);
    app.get('/missing', { config: { auth: 'none', cache: 'private' } }, async () => {
      throw Object.assign(new Error('no such thing'), { statusCode: 404 });
    });
  });

describe('HTTP caching declared per route', () => {
  it('gives a strong ETag (a SHA-256 of the bytes sent) and the policy’s Cache-Control', async () => {
    const a = await app();
    const res = await a.inject({ url: '/catalogue', headers: key });
    expect(res.statusCode).toBe(200);
    const expected = `"${createHash('sha256').update(res.rawPayload).digest('base64url')}"`;
    expect(res.headers.etag).toBe(expected);
    expect(res.headers.etag).not.toMatch(/^W\//);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['x-accel-expires']).toBeUndefined();

    const pub = await a.inject({ url: '/public' });
    expect(pub.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    expect(pub.headers['x-accel-expires']).toBe('@1');
    // Same bytes, same tag: what any replica would answer for the same data.
    expect(pub.headers.etag).toBe(expected);
    expect(CACHE_CONTROL).toEqual({
      private: 'private, no-cache',
      public: 'public, max-age=5, stale-while-revalidate=30',
    });
  });

  it('answers 304 without a body on a matching If-None-Match, keeping ETag and Cache-Control', async () => {
    const a = await app();
    const first = await a.inject({ url: '/catalogue', headers: key });
    const etag = first.headers.etag as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await a.inject({
        url: '/catalogue',
        headers: { ...key, 'if-none-match': ifNoneMatch },
      });
      expect({ ifNoneMatch, status: res.statusCode }).toEqual({ ifNoneMatch, status: 304 });
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['content-type']).toBeUndefined();
    }
    const pub = await a.inject({ url: '/public', headers: { 'if-none-match': etag } });
    expect(pub.statusCode).toBe(304);
    expect(pub.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
  });

  it('answers 200 with the body on a different or stale ETag', async () => {
    const a = await app();
    const before = await a.inject({ url: '/catalogue', headers: key });
    const stale = before.headers.etag as string;
    for (const ifNoneMatch of ['"something-else"', 'W/"something-else"', `"${stale}"`]) {
      const res = await a.inject({
        url: '/catalogue',
        headers: { ...key, 'if-none-match': ifNoneMatch },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(before.body);
    }
    catalogue = {
      success: true,
      data: [
        { id: 1, name: 'Leash' },
        { id: 2, name: 'Collar' },
      ],
    };
    const after = await a.inject({
      url: '/catalogue',
      headers: { ...key, 'if-none-match': stale },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(catalogue);
    expect(after.headers.etag).not.toBe(stale);
  });

  it('leaves routes that do not declare caching alone, and never turns an error into a 304', async () => {
    const a = await app();
    const plain = await a.inject({ url: '/plain' });
    expect(plain.headers.etag).toBeUndefined();
    expect(plain.headers['cache-control']).toBeUndefined();
    expect((await a.inject({ url: '/plain', headers: { 'if-none-match': '*' } })).statusCode).toBe(
      200,
    );
    const personal = await a.inject({ url: '/profile', headers: key });
    expect(personal.headers.etag).toBeUndefined();
    expect(personal.headers['cache-control']).toBe('private, no-store');

    const refused = await a.inject({ url: '/catalogue', headers: { 'if-none-match': '*' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers.etag).toBeUndefined();
    expect(refused.headers['cache-control']).toBeUndefined();
    const missing = await a.inject({ url: '/missing', headers: { 'if-none-match': '*' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers HEAD like GET, with the same ETag', async () => {
    const a = await app();
    const get = await a.inject({ url: '/catalogue', headers: key });
    const head = await a.inject({ method: 'HEAD', url: '/catalogue', headers: key });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    const conditional = await a.inject({
      method: 'HEAD',
      url: '/catalogue',
      headers: { ...key, 'if-none-match': get.headers.etag as string },
    });
    expect(conditional.statusCode).toBe(304);
    expect(conditional.rawPayload.length).toBe(0);
    expect(conditional.headers.etag).toBe(get.headers.etag);
    // The length a 200 would have had, or none (RFC 9110 §8.6), never 0.
    expect(conditional.headers['content-length']).toBe(String(get.rawPayload.length));
  });

  it('uses the ETag a route set itself (a kept serialised answer) instead of hashing again', async () => {
    const body = Buffer.from(JSON.stringify(catalogue));
    const etag = strongEtag(body);
    expect(etag).toBe(`"${createHash('sha256').update(body).digest('base64url')}"`);
    const a = await build((app) =>
      app.get('/kept', { config: { auth: 'none', cache: 'public' } }, async (_request, reply) =>
        reply.header('etag', '"set-by-the-route"').type('application/json').send(body),
      ),
    );
    const res = await a.inject({ url: '/kept' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"set-by-the-route"');
    expect(res.rawPayload.equals(body)).toBe(true);
    expect(res.headers['cache-control']).toBe(CACHE_CONTROL.public);
    const again = await a.inject({
      url: '/kept',
      headers: { 'if-none-match': '"set-by-the-route"' },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('refuses at start-up a route that is both personal and cached, or cached wrongly', async () => {
    await expect(
      build((app) =>
        app.get(
          '/me',
          { config: { auth: 'key', personal: true, cache: 'private' } },
          async () => 1,
        ),
      ),
    ).rejects.toThrow('GET /me: declares both personal and cache');
    await expect(
      build((app) => app.get('/list', { config: { auth: 'key', cache: 'public' } }, async () => 1)),
    ).rejects.toThrow("GET /list: cache 'public' needs auth 'none'");
    await expect(
      build((app) =>
        app.post('/list', { config: { auth: 'none', cache: 'public' } }, async () => 1),
      ),
    ).rejects.toThrow('POST /list: only GET answers are cached');
    await expect(
      build((app) =>
        app.get(
          '/list',
          { config: { auth: 'none', cache: 'forever' as unknown as 'public' } },
          async () => 1,
        ),
      ),
    ).rejects.toThrow("GET /list: unknown cache policy 'forever'");
  });
});

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" , "y"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['"ab"', false],
    ['abc', false],
    ['', false],
    ['"x", "y"', false],
  ])('%s matches: %s', (field, expected) => {
    expect(ifNoneMatchMatches(field, etag)).toBe(expected);
  });
  it('does not match when there is no header', () => {
    expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
  });
});
