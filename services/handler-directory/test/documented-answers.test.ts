// The answers openapi/handler-directory.json promises that the fuzz and attack tests seldom
// reach, asked for one by one: 304 with its ETag, 413 and 415 on every route that reads a body,
// 503 on every operation while MongoDB is down, a long path parameter, U+0000 in an id, an
// unknown query parameter, a record sent back with its read-only fields, the export examples.
// Every answer is checked against the document (status listed, body, headers). The global 429
// is in service-kit.test.ts (the suite both services share).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EXPORT_CSV_EXAMPLE,
  handlerExample,
  type Handler,
} from '@dogshop/contracts/handler-directory';
import {
  answerLog,
  documentedBodies,
  operationsOf,
  readDocument,
  type Operation,
} from '@dogshop/api-fuzz';
import { startMongoWireServer } from '@dogshop/mongo-wire-server';
import { buildApp } from '../src/app.js';
import { MESSAGES } from '../src/messages.js';
import { createAccount } from '../src/modules/accounts/service.js';
import { createTestApp, testConfig, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';
import { bearer } from './support/tokens.js';

const document = readDocument(new URL('../../../openapi/handler-directory.json', import.meta.url));
const operations = operationsOf(document);
const documented = answerLog(operations);
const operation = (id: string) => operations.find((op) => op.operationId === id)!;

let t: TestApp;
let handler: Handler;

beforeAll(async () => {
  t = await createTestApp();
  documented.watch(t.app);
  handler = await createHandler(t, { name: 'Dokumentiert', gps: { lat: 52, lng: 10 } });
});
afterAll(() => t?.close());

/** The operation's path with the test handler's id. */
const urlOf = (op: Operation, id = handler._id) => op.route.replace('{id}', id);
const asAdmin = (op: Operation) => (op.public ? {} : bearer(t.admin.token));

describe('what the document promises', () => {
  it('answers the public list 304 with its ETag when nothing changed', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/public/users' });
    const etag = first.headers.etag as string;
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/public/users',
      headers: { 'if-none-match': etag },
    });
    expect({ status: again.statusCode, etag: again.headers.etag, body: again.body }).toEqual({
      status: 304,
      etag,
      body: '',
    });
  });

  it('answers 415 and 413 in the German envelope on every route that reads a body', async () => {
    const readers = operations.filter((op) => op.method !== 'GET');
    expect(readers.length).toBeGreaterThan(5);
    for (const op of readers) {
      const request = { method: op.method as 'POST', url: urlOf(op), headers: asAdmin(op) };
      // The import reads files (CSV, XLSX) of up to 10 MB and says so; every other body is JSON.
      const file = op.operationId === 'importHandlers';
      const text = await t.app.inject({
        ...request,
        headers: { ...request.headers, 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectDirectoryError(
        text,
        415,
        file ? /text\/csv oder eine XLSX-Datei/ : MESSAGES.unsupportedMediaType,
      );
      const large = await t.app.inject({
        ...request,
        headers: { ...request.headers, 'content-type': file ? 'text/csv' : 'application/json' },
        payload: file
          ? 'x'.repeat(10 * 1024 * 1024 + 1)
          : JSON.stringify({ name: 'x'.repeat(110 * 1024) }),
      });
      expectDirectoryError(large, 413, file ? /höchstens 10 MB/ : MESSAGES.bodyTooLarge);
    }
  });

  it('answers 503 on every operation but liveness while MongoDB is down', async () => {
    const validBodies: Record<string, object> = {
      login: { username: 'down.admin', password: 'down-password-1' },
      createHandler: { name: 'N', phone: '1' },
      updateHandler: { phone: '2' },
      setHandlerAvailability: { available: false },
      setHandlerGps: { lat: 1, lng: 2 },
      createAccount: { username: 'neu.konto', role: 'viewer' },
      updateAccount: { disabled: false },
      setPassword: { token: 'ein-token', password: 'a long new passphrase' },
      changePassword: { currentPassword: 'down-password-1', newPassword: 'a long new passphrase' },
    };
    // The import's body is a file, not JSON.
    const csvFile = { headers: { 'content-type': 'text/csv' }, payload: 'name,phone\r\nA,1\r\n' };
    const server = await startMongoWireServer({ log: () => {} });
    const app = documented.watch(await buildApp(testConfig({ mongodbUri: `${server.uri}/down` })));
    try {
      await app.ready();
      const admin = await createAccount(app.db, {
        username: 'down.admin',
        password: 'down-password-1',
      });
      const token = app.signAccountToken(admin);
      await server.close();
      // At once: while the server is gone, each request waits out the driver's server selection.
      const down = operations.filter((op) => op.operationId !== 'getHealth');
      const answers = await Promise.all(
        down.map((op) =>
          app.inject({
            method: op.method as 'GET',
            url: urlOf(op, '665f1c2ab4d3e8a1c2f0b123'),
            headers: op.public ? {} : bearer(token),
            ...(op.body ? { payload: validBodies[op.operationId] } : {}),
            ...(op.operationId === 'importHandlers'
              ? { payload: csvFile.payload, headers: { ...bearer(token), ...csvFile.headers } }
              : {}),
          }),
        ),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(down.map(() => 503));
    } finally {
      await app.close();
    }
  });

  it('takes an id over 100 characters to its route: 404 in German, with the usual headers', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.request({ method, url: `/api/users/${'a'.repeat(150)}`, as: t.admin });
      expectDirectoryError(res, 404, MESSAGES.handlerNotFound);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses U+0000 in an id with 400, as documented for reading and deleting', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.request({ method, url: '/api/users/a%00b', as: t.admin });
      expectDirectoryError(res, 400, /params\.id/);
    }
  });

  it('refuses a query parameter an operation does not list, as every operation does', async () => {
    // Behaviour change of issue 20: /api/users?x=1 answered 200 before.
    for (const url of ['/api/users?x=1', `/api/users/${handler._id}?x=1`]) {
      expectDirectoryError(await t.request({ method: 'GET', url, as: t.viewer }), 400, /'x'/);
    }
  });

  it('takes a handler sent back as it was shown, read-only fields included, as the document does', async () => {
    const shown = (
      await t.request({ method: 'GET', url: urlOf(operation('getHandler')), as: t.viewer })
    ).json<{ data: Handler }>().data;
    const bodyProblems = documentedBodies();
    expect(bodyProblems(operation('updateHandler'), shown)).toEqual([]);
    expect(bodyProblems(operation('createHandler'), { ...shown, __v: 0 })).toEqual([]);
    const updated = await t.request({
      method: 'PUT',
      url: urlOf(operation('updateHandler')),
      payload: shown,
      as: t.admin,
    });
    expect(updated.statusCode).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      payload: { ...shown, __v: 0 },
      as: t.admin,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ data: Handler }>().data._id).not.toBe(shown._id);
  });

  it('shows in its CSV example the row the service writes for the example handler', async () => {
    const { _id, createdAt, updatedAt, availableUntil, availabilityConfirmedAt, ...fields } =
      handlerExample;
    // The example's end has passed by now: a create needs one ahead.
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const created = await createHandler(t, { ...fields, availableUntil: until });
    const csv = (
      await t.request({ method: 'GET', url: '/api/users/export?format=csv', as: t.viewer })
    ).body;
    const [header] = csv.split('\r\n');
    const row = csv.split('\r\n').find((line) => line.startsWith(created._id));
    const example = EXPORT_CSV_EXAMPLE.replace(_id, created._id)
      .replace(availableUntil!, until)
      .replace(availabilityConfirmedAt!, created.availabilityConfirmedAt!)
      .replace(createdAt, created.createdAt)
      .replace(updatedAt, created.updatedAt);
    expect(`${header}\r\n${row}`).toBe(example);
    type Documented = {
      responses: Record<string, { content: Record<string, { example: string }> }>;
    };
    const exported = document.paths['/api/users/export']?.get as Documented;
    expect(exported.responses['200']!.content['text/csv']!.example).toBe(EXPORT_CSV_EXAMPLE);
  });
});

describe('the OpenAPI document', () => {
  it('lists every answer above: its status, its body and its headers', () => {
    expect(documented.problems).toEqual([]);
    expect(documented.checked).toBeGreaterThan(35);
  });
});
