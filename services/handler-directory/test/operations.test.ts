// The directory's own operations: /ready without MongoDB, its OpenAPI document, its indexes, the
// 500 mask in German. /health, /ready, GET /, /docs, 404/400/415/413 in the envelope, the global
// 429 and request ids are service-kit's: service-kit.test.ts, the suite both services share.
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
  it('answers an unknown method on a known path with 404', async () => {
    expectDirectoryError(
      await t.request({ method: 'PATCH', url: '/api/users/x', as: t.admin }),
      404,
      'Ressource nicht gefunden',
    );
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
});
