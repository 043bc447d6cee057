import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorEnvelope } from '../src/error-envelope.js';
import { germanValidation } from '../src/localize.js';
import { rejectNul } from '../src/reject-nul.js';
import { serverOptions } from '../src/server-options.js';
import { PLAIN_DECIMAL, useStrictValidation } from '../src/validation.js';

const body = (status_code: number, error: string) => ({ success: false, error, status_code });

async function buildStack(german = false): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions({
      logLevel: 'silent',
      clientErrors: german
        ? { body, messages: { 400: 'Ungültige Anfrage', 431: 'Header zu groß' } }
        : { body },
    }),
  });
  useStrictValidation(app);
  await app.register(errorEnvelope, {
    body,
    ...(german && {
      localize: germanValidation({ plainInteger: 'ganz-de', plainNumber: 'zahl-de' }),
      messages: { validation: 'Ungültig: ', unknownField: 'unbekanntes Feld' },
    }),
  });
  await app.register(rejectNul, german ? { message: (field) => `${field} NUL-de` } : {});
  app.get(
    '/items/:id',
    {
      schema: {
        params: {
          type: 'object',
          properties: { id: { type: 'integer', minimum: 1 } },
          required: ['id'],
          additionalProperties: false,
        },
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, default: 1 },
            price: { type: 'number' },
            maybe: { anyOf: [{ type: 'number' }, { type: 'null' }] },
            tags: { type: 'array', items: { type: 'integer' } },
            text: { type: 'string' },
            either: { type: ['string', 'number'] },
          },
          additionalProperties: false,
        },
      },
    },
    async (request) => ({ params: request.params, query: request.query }),
  );
  return app;
}

describe('plain decimal numbers in paths and query strings', () => {
  let app: FastifyInstance;
  let german: FastifyInstance;
  beforeAll(async () => {
    app = await buildStack();
    german = await buildStack(true);
  });
  afterAll(async () => {
    await app.close();
    await german.close();
  });

  it('accepts exactly plain decimal notation', () => {
    const integers = ['0', '1', '-1', '12', '2147483647', '-30'];
    const numbers = [...integers, '0.5', '-0.5', '10.50', '1.0', '52.520008'];
    const loose = ['', ' 1', '1 ', '+1', '01', '-01', '00', '0x1', '0b1', '0o7', '1e2', '1E2'];
    const looseNumbers = [...loose, '.5', '5.', '1.2.3', 'Infinity', 'NaN', '1_000', '١'];
    for (const text of integers)
      expect([text, PLAIN_DECIMAL.integer.test(text)]).toEqual([text, true]);
    for (const text of numbers)
      expect([text, PLAIN_DECIMAL.number.test(text)]).toEqual([text, true]);
    for (const text of [...loose, '1.0', '1.5', '-0']) {
      expect([text, PLAIN_DECIMAL.integer.test(text)]).toEqual([text, false]);
    }
    for (const text of [...looseNumbers, '-0', '-0.0', '-0.000']) {
      expect([text, PLAIN_DECIMAL.number.test(text)]).toEqual([text, false]);
    }
  });

  it('coerces plain numbers as before, arrays and defaults included', async () => {
    const res = await app.inject({
      url: '/items/7?price=10.5&maybe=-2&tags=1&tags=20&text=0x1&either=0x1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      params: { id: 7 },
      query: { page: 1, price: 10.5, maybe: -2, tags: [1, 20], text: '0x1', either: '0x1' },
    });
    const single = await app.inject({ url: '/items/1?tags=3' });
    expect(single.json().query.tags).toEqual([3]);
  });

  it.each([
    ['/items/0x1', 'params.id must be a plain decimal integer'],
    ['/items/1.0', 'params.id must be a plain decimal integer'],
    ['/items/01', 'params.id must be a plain decimal integer'],
    ['/items/+1', 'params.id must be a plain decimal integer'],
    ['/items/%201', 'params.id must be a plain decimal integer'],
    ['/items/1e0', 'params.id must be a plain decimal integer'],
    ['/items/-0', 'params.id must be a plain decimal integer'],
    ['/items/1?page=0x10', 'querystring.page must be a plain decimal integer'],
    ['/items/1?page=', 'querystring.page must be a plain decimal integer'],
    ['/items/1?price=1e2', 'querystring.price must be a plain decimal number'],
    ['/items/1?price=.5', 'querystring.price must be a plain decimal number'],
    ['/items/1?maybe=0x10', 'querystring.maybe must be a plain decimal number'],
    ['/items/1?tags=1&tags=0x2', 'querystring.tags.1 must be a plain decimal integer'],
    // Plain but out of range or repeated: Ajv's own rules still answer.
    ['/items/0', 'params.id must be >= 1'],
    ['/items/1?page=1&page=2', 'querystring.page must be integer'],
  ])('%s → 400 %s', async (url, error) => {
    const res = await app.inject({ url });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { success: false, error, status_code: 400 },
    });
  });

  it('speaks the service language when given a localizer', async () => {
    const cases: Array<[string, string]> = [
      ['/items/0x1', 'Ungültig: params.id ganz-de'],
      ['/items/1?price=1e2', 'Ungültig: querystring.price zahl-de'],
      ['/items/1?price=x1', 'Ungültig: querystring.price zahl-de'],
      ['/items/0', 'Ungültig: params.id muss >= 1 sein'],
      ['/items/1?page=1&page=2', 'Ungültig: querystring.page muss sein: integer'],
      ['/items/1?nope=1', "Ungültig: querystring: unbekanntes Feld 'nope'"],
      ['/items/1?text=a%00b', 'querystring.text NUL-de'],
    ];
    for (const [url, error] of cases) {
      expect([url, (await german.inject({ url })).json().error]).toEqual([url, error]);
    }
    expect((await app.inject({ url: '/items/1?text=a%00b' })).json().error).toBe(
      'querystring.text must not contain the character U+0000',
    );
  });
});

/** Writes raw bytes to a listening app and reads until the server closes the connection. */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection left open: ${text}`));
    }, 5_000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => {}); // a reset after the answer is fine
    socket.on('close', () => {
      clearTimeout(guard);
      resolve(text);
    });
  });
}

/** Status line, headers (lower-cased names) and JSON body of a raw HTTP/1.1 answer. */
function parseRaw(text: string) {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const bodyText = rest.join('\r\n\r\n');
  return { statusLine, headers, bodyText, body: JSON.parse(bodyText) as unknown };
}

describe("errors of Node's HTTP parser", () => {
  it('answer in the envelope and language given, with Connection: close and a correct length', async () => {
    for (const german of [false, true]) {
      const app = await buildStack(german);
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = app.server.address() as net.AddressInfo;
        const bad = parseRaw(await raw(port, 'GET /items/1 FOO/1.1\r\n\r\n'));
        expect(bad.statusLine).toBe('HTTP/1.1 400 Bad Request');
        expect(bad.headers).toMatchObject({
          connection: 'close',
          'content-type': 'application/json; charset=utf-8',
        });
        expect(Number(bad.headers['content-length'])).toBe(Buffer.byteLength(bad.bodyText));
        expect(bad.body).toEqual(
          body(400, german ? 'Ungültige Anfrage' : 'Bad request: the request could not be parsed'),
        );
        const long = parseRaw(
          await raw(port, `GET /items/${'1'.repeat(100_000)} HTTP/1.1\r\n\r\n`),
        );
        expect(long.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
        expect(long.body).toEqual(
          body(
            431,
            german ? 'Header zu groß' : 'Request header fields too large (URL or headers too long)',
          ),
        );
      } finally {
        await app.close();
      }
    }
  });

  it("keep Fastify's default when a service gives no envelope", async () => {
    const app = Fastify(serverOptions({ logLevel: 'silent' }));
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as net.AddressInfo;
      const answer = parseRaw(await raw(port, 'GET / FOO/1.1\r\n\r\n'));
      expect(answer.body).toEqual({
        error: 'Bad Request',
        message: 'Client Error',
        statusCode: 400,
      });
    } finally {
      await app.close();
    }
  });
});
