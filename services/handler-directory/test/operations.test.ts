import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildApp } from '../src/app.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operations endpoints', () => {
  it('answers /health and /ready without a token', async () => {
    const health = await t.request({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe('ok');
    const ready = await t.request({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers GET / with a pointer to the documentation', async () => {
    const res = await t.request({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    });
  });

  it('answers /ready with 503 once MongoDB is unreachable', async () => {
    const app = await buildApp(t.config);
    await app.ready();
    await app.db.connection.close();
    const res = await app.inject({ method: 'GET', url: '/ready' });
    await app.close();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
  });

  it('serves the OpenAPI document with the bearer scheme and every spec operation', async () => {
    const res = await t.request({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['BearerAuth']);
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/public/users',
        'POST /api/auth/login',
        'GET /api/users',
        'GET /api/users/{id}',
        'POST /api/users',
        'PUT /api/users/{id}',
        'DELETE /api/users/{id}',
        'PUT /api/users/{id}/availability',
        'PUT /api/users/{id}/gps',
        'GET /api/users/export',
      ]),
    );
    expect(doc.paths['/api/users'].post.security).toEqual([{ BearerAuth: [] }]);
    expect(doc.paths['/api/public/users'].get.security).toEqual([]);
    expect(Object.keys(doc.paths['/api/users'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403']),
    );
    expect(Object.keys(doc.paths['/api/users/export'].get.responses['200'].content).sort()).toEqual(
      [
        'application/json',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'text/csv',
      ],
    );
  });

  it('serves the interactive docs at /docs', async () => {
    const res = await t.request({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('indexes', () => {
  it('are declared for what the lists filter and sort on, and for unique usernames', async () => {
    const handlerKeys = (await t.app.db.handlers.listIndexes()).map((i) => i.key);
    expect(handlerKeys).toEqual(
      expect.arrayContaining([
        { available: 1, nameSort: 1, _id: 1 },
        { nameSort: 1, _id: 1 },
      ]),
    );
    const admins = await t.app.db.admins.listIndexes();
    expect(admins.find((i) => i.name === 'username_1')).toMatchObject({
      key: { username: 1 },
      unique: true,
    });
  });
});

describe('error envelope, in German', () => {
  it('answers unknown routes and methods with 404', async () => {
    expectDirectoryError(
      await t.request({ method: 'GET', url: '/api/nope' }),
      404,
      'Ressource nicht gefunden',
    );
    expectDirectoryError(
      await t.request({ method: 'PATCH', url: '/api/users/x', as: t.admin }),
      404,
      'Ressource nicht gefunden',
    );
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expectDirectoryError(res, 400, /^Ungültige Anfrage: der Body konnte nicht gelesen werden/);
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
      as: t.admin,
    });
    expectDirectoryError(res, 415, 'Nicht unterstützter Content-Type (erwartet: application/json)');
  });

  it('answers bodies over 100 kB with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x', phone: '1', address: 'x'.repeat(110_000) }),
      as: t.admin,
    });
    expectDirectoryError(res, 413, 'Anfrage zu groß (höchstens 100 kB)');
  });

  it('masks unexpected failures as a generic 500 without details', async () => {
    const app = await buildApp(t.config);
    app.get('/boom', async () => {
      throw new Error('E11000 duplicate key error collection: handler_directory.secret');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expectDirectoryError(res, 500, 'Interner Serverfehler');
    expect(res.body).not.toMatch(/E11000|secret|at /);
  });

  it('answers 429 with Retry-After once the global limit is spent', async () => {
    const limited = await createTestApp({ rateLimitPerMinute: 2 });
    try {
      await limited.request({ method: 'GET', url: '/api/public/users' });
      await limited.request({ method: 'GET', url: '/api/public/users' });
      const res = await limited.request({ method: 'GET', url: '/api/public/users' });
      expectDirectoryError(res, 429, 'Zu viele Anfragen, bitte später erneut versuchen');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and generates one otherwise', async () => {
    const echoed = await t.request({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await t.request({ method: 'GET', url: '/api/nope' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
