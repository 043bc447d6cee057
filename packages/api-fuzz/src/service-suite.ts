// One suite for the behaviour both services get from service-kit (its buildService and the HTTP
// server options): requests Node's HTTP parser refuses (400, 431, slow-loris 408) answered in the
// service's envelope and closed, X-Request-Id never injecting headers, JWTs of another algorithm
// or from the future refused, a login for an unknown account as slow as a wrong password, the
// global rate limit's 429, and every answer on the way checked against the service's document.
// Each service runs it against itself from test/service-kit.test.ts with a few lines of setup
// (a `ServiceUnderTest`); the service's own tests keep what is the service's.
import { generateKeyPairSync, createHmac, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRawHttpAnswer, rawHttpExchange } from '@dogshop/child-processes';
import { answerLog } from './documented-answers.js';
import type { Operation } from './openapi-operations.js';

/** A request as `app.inject` takes it. */
export interface SuiteRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
}

/** An answer as `app.inject` gives it. */
export interface SuiteAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json(): unknown;
}

/** What the suite needs of a Fastify app (a FastifyInstance is one). */
export interface SuiteApp {
  inject(request: SuiteRequest): Promise<SuiteAnswer>;
  listen(opts: { port: number; host: string }): Promise<unknown>;
  server: { address(): AddressInfo | string | null };
}

/** One started app of the service (its own database), with what the suite asks of it. */
export interface StartedService {
  app: SuiteApp;
  /** Drops its database and closes it. */
  close(): Promise<void>;
  /** A read that needs the database, with the credentials it takes (a 200). */
  read: SuiteRequest;
  /** A write that reads a JSON body, with its credentials but without a body. */
  write: SuiteRequest;
  /** How many records the write would have stored (none may appear after a refused one). */
  stored(): Promise<number>;
  /** Claims of a real account, as the service issues them, then `extra`. */
  claims(extra?: Record<string, unknown>): Record<string, unknown>;
  /** A request that needs the account's bearer token (a 200 with a valid one). */
  withToken(token: string): SuiteRequest;
  /** The login: a known account, an unknown one, the request for either with a password. */
  login: {
    known: string;
    unknown: (i: number) => string;
    request: (who: string, password: string) => SuiteRequest;
  };
}

/** Settings of the common configuration the suite changes (CommonConfig's names). */
export interface SuiteOverrides {
  requestTimeoutMs?: number;
  rateLimitPerMinute?: number;
}

export interface ServiceUnderTest {
  /** How the tests name it: `shop`, `handler directory`. */
  name: string;
  /** The operations of its committed document: every answer below is checked against them. */
  operations: Operation[];
  /** A fresh app of the service on its own database, ready, with `overrides`. */
  start(overrides?: SuiteOverrides): Promise<StartedService>;
  /** The HS256 secret the apps sign tokens with. */
  jwtSecret: string;
  /**
   * Asserts a parsed error body: the service's envelope with `status`, its message matching
   * (a RegExp) or equal to (a string) `message`.
   */
  expectErrorBody(body: unknown, status: number, message?: RegExp | string): void;
  /** The messages of the answers the service gives to what Node's HTTP parser refuses. */
  clientErrors: { 400: RegExp | string; 408: RegExp | string; 431: RegExp | string };
  /** The message of a refused token (401). */
  tokenInvalid: RegExp | string;
  /** The message of the global rate limit's 429. */
  tooManyRequests: RegExp | string;
  /** The messages of the framework's own refusals (undefined: any text). */
  messages: {
    notFound?: RegExp | string;
    malformedJson?: RegExp | string;
    unsupportedMediaType?: RegExp | string;
    bodyTooLarge?: RegExp | string;
  };
}

/** GET /metrics without credentials (the scraper has none): the Prometheus text. */
export async function scrapeMetrics(app: SuiteApp): Promise<string> {
  const res = await app.inject({ url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample line (`name{labels} value`); 0 when the series has none yet. */
export function metricSample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** The port a listening app took on 127.0.0.1. */
export async function listening(app: SuiteApp): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (sorted.length - 1) / 2;
  return (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
};

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT signed by hand with HMAC-SHA256, whatever its header says. */
function hs256(payload: object, header: object, secret: string | Buffer): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/**
 * Declares the suite: one app of the service for most tests, listening on 127.0.0.1, and one of
 * its own for the tests that change a setting.
 */
export function describeServiceKitBehaviour(service: ServiceUnderTest): void {
  const documented = answerLog(service.operations);
  let s: StartedService;
  let port: number;

  beforeAll(async () => {
    s = await service.start();
    documented.watch(s.app);
    port = await listening(s.app);
  });
  afterAll(() => s?.close());

  const send = (request: SuiteRequest, extra: Partial<SuiteRequest> = {}) =>
    s.app.inject({
      ...request,
      ...extra,
      headers: { ...request.headers, ...extra.headers },
    });
  const expectError = (
    answer: SuiteAnswer,
    status: number,
    message?: RegExp | string,
    label?: string,
  ) => {
    expect({ label, status: answer.statusCode }).toEqual({ label, status });
    service.expectErrorBody(answer.json(), status, message);
  };

  /** A complete HTTP/1.1 answer in the service's envelope that closes the connection. */
  function expectRawError(text: string, status: 400 | 408 | 431, reason: string) {
    const { statusLine, headers, body } = parseRawHttpAnswer(text);
    expect(statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
    expect(headers).toMatchObject({
      connection: 'close',
      'content-type': 'application/json; charset=utf-8',
      // Bytes, not characters: the directory's German texts have umlauts.
      'content-length': String(Buffer.byteLength(body)),
    });
    service.expectErrorBody(JSON.parse(body), status, service.clientErrors[status]);
  }

  describe(`the ${service.name} on service-kit: operations endpoints and the error envelope`, () => {
    it('answers /health and /ready without credentials, and GET / points to the documentation', async () => {
      const health = await send({ method: 'GET', url: '/health' });
      expect({ status: health.statusCode, body: health.json() }).toMatchObject({
        status: 200,
        body: { status: 'ok' },
      });
      const ready = await send({ method: 'GET', url: '/ready' });
      expect({ status: ready.statusCode, body: ready.json() }).toEqual({
        status: 200,
        body: { status: 'ready' },
      });
      const root = await send({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(200);
      expect(root.json()).toMatchObject({
        docs: '/docs',
        openapi: '/openapi.json',
        health: '/health',
      });
      const docs = await send({ method: 'GET', url: '/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.headers['content-type']).toMatch(/text\/html/);
      // Served over plain http behind a gateway, the page must not demand https for its assets.
      expect(docs.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(docs.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    });

    it('answers an unknown route with 404 in the envelope', async () => {
      expectError(await send({ method: 'GET', url: '/nope' }), 404, service.messages.notFound);
      expectError(await send({ method: 'GET', url: '/api/nope' }), 404, service.messages.notFound);
    });

    it('answers malformed JSON 400, another content type 415 and a body over 100 kB 413, storing nothing', async () => {
      const before = await s.stored();
      const json = { 'content-type': 'application/json' };
      expectError(
        await send(s.write, { headers: json, payload: '{"name": ' }),
        400,
        service.messages.malformedJson,
      );
      expectError(
        await send(s.write, { headers: { 'content-type': 'text/plain' }, payload: 'name=x' }),
        415,
        service.messages.unsupportedMediaType,
      );
      expectError(
        await send(s.write, {
          headers: json,
          payload: JSON.stringify({
            name: 'x',
            email: 'a@example.com',
            filler: 'x'.repeat(110_000),
          }),
        }),
        413,
        service.messages.bodyTooLarge,
      );
      expect(await s.stored()).toBe(before);
    });
  });

  describe(`the ${service.name} on service-kit: requests Node's HTTP parser refuses`, () => {
    it('answers a bad request line with 400 in the envelope', async () => {
      for (const line of ['GET /health FOO/1.1', 'BREW /health HTTP/1.1', 'GET']) {
        const { text } = await rawHttpExchange(port, [`${line}\r\nHost: x\r\n\r\n`]);
        expectRawError(text, 400, 'Bad Request');
      }
    });

    it('answers 3,000 headers and a 100 kB URL with 431 in the envelope, unharmed', async () => {
      const headers = Array.from({ length: 3_000 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
      const url = `${s.read.url}${s.read.url.includes('?') ? '&' : '?'}x=${'a'.repeat(100 * 1024)}`;
      for (const request of [
        `GET /health HTTP/1.1\r\nHost: x\r\n${headers}\r\n`,
        `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ]) {
        const { text } = await rawHttpExchange(port, [request]);
        expectRawError(text, 431, 'Request Header Fields Too Large');
      }
      expect((await send(s.read)).statusCode).toBe(200);
    });

    it('cuts off slow-loris bodies and headers after the request timeout (408 in the envelope, closed), serving others meanwhile', async () => {
      const slow = await service.start({ requestTimeoutMs: 1_000 });
      try {
        documented.watch(slow.app);
        const slowPort = await listening(slow.app);
        const auth = Object.entries(slow.write.headers ?? {})
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        const head = `${slow.write.method ?? 'POST'} ${slow.write.url} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{`;
        const trickle = { pauseMs: 200, maxMs: 6_000 };
        const [slowBody, slowHeaders, normal] = await Promise.all([
          rawHttpExchange(slowPort, [head, ...Array.from({ length: 40 }, () => ' ')], trickle),
          rawHttpExchange(slowPort, `GET ${slow.read.url} HTTP/1.1\r\nHost: x\r\nX-T: `.split(''), {
            ...trickle,
          }),
          (async () => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            return slow.app.inject(slow.read);
          })(),
        ]);
        for (const cut of [slowBody, slowHeaders]) {
          expectRawError(cut.text, 408, 'Request Timeout');
          expect(cut.closedAfterMs).toBeGreaterThanOrEqual(1_000);
          expect(cut.closedAfterMs).toBeLessThan(3_000);
          expect(cut.partsWritten).toBeLessThan(16); // cut off long before it finished
        }
        expect(normal.statusCode).toBe(200);
        expect(await slow.stored()).toBe(0);
      } finally {
        await slow.close();
      }
    });
  });

  describe(`the ${service.name} on service-kit: X-Request-Id`, () => {
    it('never lets it inject headers: unsafe ids are replaced, CR/LF never reach the response', async () => {
      for (const hostile of [
        '<script>alert(1)</script>',
        'a b',
        'id;rm -rf',
        '%0d%0aSet-Cookie:x=1',
        'ä',
        'x'.repeat(129),
        '',
      ]) {
        const res = await send(
          { method: 'GET', url: '/health' },
          {
            headers: { 'x-request-id': hostile },
          },
        );
        expect(res.headers['x-request-id']).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        );
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      for (const header of [
        'X-Request-Id: abc\r\n Set-Cookie: pwned=1', // obsolete line folding
        'X-Request-Id: abc\rSet-Cookie: pwned=1', // a bare CR
        'X-Request-Id: abc\nSet-Cookie: pwned=1', // a bare LF
        'X-Request-Id: abc\u0000Set-Cookie: pwned=1',
      ]) {
        const { text } = await rawHttpExchange(port, [
          `GET /health HTTP/1.1\r\nHost: x\r\n${header}\r\nConnection: close\r\n\r\n`,
        ]);
        const [head] = text.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 (200|400) /);
        expect(head).not.toMatch(/^set-cookie:/im);
        expect(head).not.toMatch(/pwned/);
      }
    });

    it('echoes a well-formed id and generates one otherwise, on errors too', async () => {
      const echoed = await send(
        { method: 'GET', url: '/health' },
        {
          headers: { 'x-request-id': 'abc-123.x_Y:z' },
        },
      );
      expect(echoed.headers['x-request-id']).toBe('abc-123.x_Y:z');
      for (const url of ['/health', '/api/nope']) {
        const generated = await send({ method: 'GET', url });
        expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  describe(`the ${service.name} on service-kit: bearer tokens`, () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' });
    const now = () => Math.floor(Date.now() / 1000);
    const hs = (payload: object, header: object = { alg: 'HS256', typ: 'JWT' }) =>
      hs256(payload, header, service.jwtSecret);

    it('accepts a token of its own, and one whose iat is a few seconds ahead (clock skew)', async () => {
      expect((await send(s.withToken(hs(s.claims())))).statusCode).toBe(200);
      const ahead = hs(s.claims({ iat: now() + 20 }));
      expect((await send(s.withToken(ahead))).statusCode).toBe(200);
    });

    it.each([
      [
        'RS256, signed with an RSA key',
        () => {
          const input = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(s.claims())}`;
          return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
        },
      ],
      ['RS256 in the header, HMAC-signed with the secret', () => hs(s.claims(), { alg: 'RS256' })],
      [
        'HS256 keyed with an RSA public key (HS/RS confusion)',
        () => hs256(s.claims(), { alg: 'HS256', typ: 'JWT' }, publicPem),
      ],
      ['ES256 in the header', () => hs(s.claims(), { alg: 'ES256', typ: 'JWT' })],
      ['a lower-case "hs256"', () => hs(s.claims(), { alg: 'hs256', typ: 'JWT' })],
      [
        '"none" as its algorithm, unsigned',
        () => `${b64url({ alg: 'none' })}.${b64url(s.claims())}.`,
      ],
      ['issued an hour in the future', () => hs(s.claims({ iat: now() + 3600 }))],
      ['with a non-numeric iat', () => hs(s.claims({ iat: 'now' }))],
      ['expired a minute ago', () => hs(s.claims({ iat: now() - 3600, exp: now() - 60 }))],
    ])('refuses a token %s with 401', async (_label, token) => {
      expectError(await send(s.withToken(token())), 401, service.tokenInvalid);
    });
  });

  describe(`the ${service.name} on service-kit: logins`, () => {
    // Measured (6 rounds of 25 interleaved pairs, two test workers): medians 14.5–19.2 ms for
    // both, differences ≤ 0.8 ms. Skipping the hash for unknown accounts would make them ~13 ms faster. Tolerance:
    // 25% of the slower median (about 4 ms), far under that gap and far over the noise.
    it('takes as long for an unknown account as for a wrong password (paired timings within 25%)', async () => {
      const login = async (who: string) => {
        const started = performance.now();
        const res = await send(s.login.request(who, 'not the password at all'));
        expect(res.statusCode).toBe(401);
        return performance.now() - started;
      };
      for (let i = 0; i < 3; i++) {
        await Promise.all([login(s.login.unknown(1_000 + i)), login(s.login.known)]);
      }
      // Each unknown login is timed right beside a wrong-password one and compared with it, so a
      // change in machine load (other test files run in parallel) affects both sides of a ratio;
      // which of the two goes first alternates. 49 pairs: with three test workers on two cores,
      // the median of 25 once landed at 1.39.
      const ratios: number[] = [];
      for (let i = 0; i < 49; i++) {
        let unknown: number;
        let wrong: number;
        if (i % 2 === 0) {
          unknown = await login(s.login.unknown(i));
          wrong = await login(s.login.known);
        } else {
          wrong = await login(s.login.known);
          unknown = await login(s.login.unknown(i));
        }
        ratios.push(unknown / wrong);
      }
      expect(median(ratios)).toBeGreaterThanOrEqual(0.75);
      expect(median(ratios)).toBeLessThanOrEqual(1 / 0.75);
    });
  });

  describe(`the ${service.name} on service-kit: the global rate limit`, () => {
    it('answers 429 in the envelope with Retry-After once it is spent', async () => {
      const limited = await service.start({ rateLimitPerMinute: 2 });
      documented.watch(limited.app);
      try {
        const answers: SuiteAnswer[] = [];
        for (let i = 0; i < 3; i++) answers.push(await limited.app.inject(limited.read));
        expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 429]);
        expectError(answers[2]!, 429, service.tooManyRequests);
        expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    });
  });

  describe(`the ${service.name}'s OpenAPI document`, () => {
    it('lists every answer above: its status, its body and its headers', () => {
      expect(documented.problems).toEqual([]);
      expect(documented.checked).toBeGreaterThan(20);
    });
  });
}
