// Strict input: numbers in paths and query strings only in plain decimal notation, requests
// Node's HTTP parser refuses answered in the shop's envelope (raw sockets against a listening
// app), and U+0000 refused (attacks.test.ts covers every body field).
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawHttpAnswer, rawHttpExchange } from '@dogshop/child-processes';
import { TEST_API_KEY, createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectShopError } from './support/contract.js';

let t: TestApp;
let bowl: number;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  bowl = (await seedCatalogue(t.app)).productId('Dog bowl');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t?.close());

describe('numbers in paths and query strings', () => {
  it('refuses every spelling of an id but the plain decimal one, naming the field', async () => {
    const spellings = [
      `0x${bowl.toString(16)}`,
      `${bowl}.0`,
      `0${bowl}`,
      `+${bowl}`,
      `%20${bowl}`,
      `${bowl}%20`,
      `${bowl}e0`,
      '-0',
    ];
    for (const spelling of spellings) {
      for (const url of [`/products/${spelling}`, `/products/${spelling}/reviews`]) {
        expectShopError(
          await t.request({ method: 'GET', url }),
          400,
          /^params\.id must be a plain decimal integer$/,
        );
      }
    }
    const plain = await t.request({ method: 'GET', url: `/products/${bowl}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.id).toBe(bowl);
  });

  it.each([
    ['page=0x10', 'page', 'integer'],
    ['page=01', 'page', 'integer'],
    ['limit=1e1', 'limit', 'integer'],
    ['limit=%2010', 'limit', 'integer'],
    ['min_price=1e2', 'min_price', 'number'],
    ['max_price=%2B5', 'max_price', 'number'],
    ['min_price=0x10', 'min_price', 'number'],
    ['category=1.0', 'category', 'integer'],
  ])('refuses ?%s with 400 naming the field', async (query, field, kind) => {
    expectShopError(
      await t.request({ method: 'GET', url: `/products?${query}` }),
      400,
      new RegExp(`^querystring\\.${field} must be a plain decimal ${kind}$`),
    );
  });

  it('still reads plain decimals: prices with decimals, pages and limits', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/products?min_price=10.5&max_price=100.00&page=1&limit=10',
    });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .data.map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['Blue lead', 'Red tracking lead']);
    expect(res.json().pagination).toMatchObject({ page: 1, limit: 10 });
    const reviews = await t.request({ method: 'GET', url: `/products/${bowl}/reviews?limit=5` });
    expect(reviews.statusCode).toBe(200);
  });
});

/** Asserts a complete HTTP/1.1 answer in the shop's envelope, closing the connection. */
function expectRawShopError(text: string, status: number, reason: string, message: RegExp) {
  const { statusLine, headers, body } = parseRawHttpAnswer(text);
  expect(statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
  expect(headers).toMatchObject({
    connection: 'close',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  });
  const json = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(json).sort()).toEqual(['error', 'status_code', 'success']);
  expect(json).toMatchObject({ success: false, status_code: status });
  expect(json.error).toMatch(message);
}

describe("requests Node's HTTP parser refuses", () => {
  it('answers a bad request line with 400 in the envelope', async () => {
    for (const line of ['GET /products FOO/1.1', 'BREW /products HTTP/1.1', 'GET']) {
      const { text } = await rawHttpExchange(port, [`${line}\r\nHost: x\r\n\r\n`]);
      expectRawShopError(
        text,
        400,
        'Bad Request',
        /^Bad request: the request could not be parsed$/,
      );
    }
  });

  it('answers 3,000 headers and a 100 kB URL with 431 in the envelope', async () => {
    const headers = Array.from({ length: 3_000 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
    const url = `/products?search=${'a'.repeat(100 * 1024)}`;
    for (const request of [
      `GET /products HTTP/1.1\r\nHost: x\r\n${headers}\r\n`,
      `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const { text } = await rawHttpExchange(port, [request]);
      expectRawShopError(text, 431, 'Request Header Fields Too Large', /^Request header fields/);
    }
    // The server is unharmed.
    expect((await t.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('cuts off a slow body with 408 in the envelope', async () => {
    const slow = await createTestApp({ requestTimeoutMs: 1_000 });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const slowPort = (slow.app.server.address() as net.AddressInfo).port;
      const head = `POST /orders HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`;
      const trickle = Array.from({ length: 20 }, () => ' ');
      const cut = await rawHttpExchange(slowPort, [head, ...trickle], {
        pauseMs: 300,
        maxMs: 6_000,
      });
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(cut.closedAfterMs).toBeLessThan(3_000);
      expectRawShopError(cut.text, 408, 'Request Timeout', /^Request timeout/);
    } finally {
      await slow.close();
    }
  });
});

describe('U+0000', () => {
  it('is refused in a path parameter and in the query string, naming the field', async () => {
    expectShopError(
      await t.request({ method: 'GET', url: `/products/${bowl}%00` }),
      400,
      /^params\.id must not contain the character U\+0000$/,
    );
    expectShopError(
      await t.request({ method: 'GET', url: '/products?sort=name%00' }),
      400,
      /^querystring\.sort must not contain the character U\+0000$/,
    );
  });
});
