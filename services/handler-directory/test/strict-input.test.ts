// Strict input: numbers in query strings only in plain decimal notation, validation messages in
// German throughout, U+0000 refused anywhere, and requests Node's HTTP parser refuses answered in
// the directory's German envelope (raw sockets against a listening app).
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawHttpAnswer, rawHttpExchange } from '@dogshop/child-processes';
import { MESSAGES } from '../src/messages.js';
import { createTestApp, type TestApp } from './support/app.js';
import { expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';

let t: TestApp;
let port: number;
let handlerId: string;

beforeAll(async () => {
  t = await createTestApp();
  handlerId = (await createHandler(t, { name: 'Potsdam Pöhlke', gps: { lat: 52.39, lng: 13.06 } }))
    ._id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
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

/** Asserts a complete HTTP/1.1 answer in the directory's envelope, closing the connection. */
function expectRawDirectoryError(text: string, status: number, reason: string, message: string) {
  const { statusLine, headers, body } = parseRawHttpAnswer(text);
  expect(statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
  expect(headers).toMatchObject({
    connection: 'close',
    'content-type': 'application/json; charset=utf-8',
    // Bytes, not characters: the German texts have umlauts.
    'content-length': String(Buffer.byteLength(body)),
  });
  expect(JSON.parse(body)).toEqual({ success: false, message });
}

describe("requests Node's HTTP parser refuses", () => {
  it('answers a bad request line with 400 in German', async () => {
    for (const line of ['GET /api/public/users FOO/1.1', 'BREW /api HTTP/1.1', 'GET']) {
      const { text } = await rawHttpExchange(port, [`${line}\r\nHost: x\r\n\r\n`]);
      expectRawDirectoryError(text, 400, 'Bad Request', MESSAGES.clientErrors[400]);
    }
  });

  it('answers 3,000 headers and a 100 kB URL with 431 in German', async () => {
    const headers = Array.from({ length: 3_000 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
    for (const request of [
      `GET /api/public/users HTTP/1.1\r\nHost: x\r\n${headers}\r\n`,
      `GET /api/public/users?lat=${'1'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const { text } = await rawHttpExchange(port, [request]);
      expectRawDirectoryError(
        text,
        431,
        'Request Header Fields Too Large',
        MESSAGES.clientErrors[431],
      );
    }
    expect((await t.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('cuts off a slow body with 408 in German', async () => {
    const slow = await createTestApp({ requestTimeoutMs: 1_000 });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const slowPort = (slow.app.server.address() as net.AddressInfo).port;
      const head = `POST /api/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${slow.admin.token}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`;
      const trickle = Array.from({ length: 20 }, () => ' ');
      const cut = await rawHttpExchange(slowPort, [head, ...trickle], {
        pauseMs: 300,
        maxMs: 6_000,
      });
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(cut.closedAfterMs).toBeLessThan(3_000);
      expectRawDirectoryError(cut.text, 408, 'Request Timeout', MESSAGES.clientErrors[408]);
      expect(await slow.app.db.handlers.countDocuments({})).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
