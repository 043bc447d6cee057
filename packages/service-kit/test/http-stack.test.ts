import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorEnvelope } from '../src/error-envelope.js';
import { healthRoutes } from '../src/health.js';
import { badRequest } from '../src/http-error.js';
import { securityDefaults } from '../src/security.js';
import { serverOptions } from '../src/server-options.js';
import { useStrictValidation } from '../src/validation.js';

/** Helmet's headers for a JSON API (security.ts), as both services send them. */
const SECURITY_HEADERS = {
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Helmet's headers for HTML documents, which an API's answers do without. */
const DOCUMENT_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

const ALLOWED = 'https://shop.example';

async function buildStack(corsOrigins: string[]): Promise<FastifyInstance> {
  const app = Fastify(serverOptions({ logLevel: 'silent' }));
  useStrictValidation(app);
  await app.register(errorEnvelope, {
    body: (status_code, error) => ({ success: false, error, status_code }),
  });
  await app.register(securityDefaults, { corsOrigins, rateLimitPerMinute: 3 });
  await app.register(healthRoutes, { isReady: async () => true });
  app.get('/boom', async () => {
    throw new Error('secret detail');
  });
  app.get('/refused', async () => {
    throw badRequest('refused here');
  });
  app.post(
    '/strict',
    {
      config: { rateLimit: { max: 1, timeWindow: 60_000 } },
      schema: {
        body: {
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
          additionalProperties: false,
        },
      },
    },
    async () => ({ ok: true }),
  );
  return app;
}

describe('the shared HTTP stack', () => {
  let app: FastifyInstance;
  let closedCors: FastifyInstance;
  beforeAll(async () => {
    app = await buildStack([ALLOWED]);
    closedCors = await buildStack([]);
  });
  afterAll(async () => {
    await app.close();
    await closedCors.close();
  });

  it('sends the security headers and a request id on successes, errors and unknown routes', async () => {
    const responses = await Promise.all(
      ['/health', '/refused', '/boom', '/nope'].map((url) => app.inject({ url })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 400, 500, 404]);
    for (const res of responses) {
      expect(res.headers).toMatchObject(SECURITY_HEADERS);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBeUndefined();
      for (const name of DOCUMENT_ONLY_HEADERS) expect(res.headers[name]).toBeUndefined();
    }
    expect(responses[2]!.json()).toEqual({
      success: false,
      error: 'Internal server error',
      status_code: 500,
    });
    expect(responses[3]!.json()).toMatchObject({ success: false, status_code: 404 });
    // A URL the router cannot decode fails before routing (so before any hook) and still gets the envelope.
    const undecodable = await app.inject({ url: '/%E0%A4%A' });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toMatchObject({ success: false, status_code: 400 });
    // Ids are per request, not per connection or process.
    expect(new Set(responses.map((r) => r.headers['x-request-id'])).size).toBe(responses.length);
  });

  it('echoes a safe X-Request-Id, also on validation errors, and replaces an unsafe one', async () => {
    const echoed = await app.inject({
      method: 'POST',
      url: '/strict',
      headers: { 'x-request-id': 'trace-1:a.b_c' },
      payload: { n: 'x' },
    });
    expect(echoed.statusCode).toBe(400);
    expect(echoed.headers['x-request-id']).toBe('trace-1:a.b_c');
    expect(echoed.json()).toEqual({
      success: false,
      error: 'body.n must be integer',
      status_code: 400,
    });
    const replaced = await app.inject({ url: '/health', headers: { 'x-request-id': 'a b' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers CORS for the allowed origin only, preflights included', async () => {
    const allowed = await app.inject({ url: '/health', headers: { origin: ALLOWED } });
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.headers['access-control-expose-headers']).toBe(
      'X-Request-Id, Retry-After, Content-Disposition',
    );
    expect(allowed.headers.vary).toBe('Origin');
    const other = await app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/strict',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
    expect(preflight.headers).toMatchObject(SECURITY_HEADERS);
  });

  it('gives no cross-origin access when no origin is configured', async () => {
    const res = await closedCors.inject({ url: '/health', headers: { origin: ALLOWED } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
    const preflight = await closedCors.inject({
      method: 'OPTIONS',
      url: '/health',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.json()).toMatchObject({ success: false, status_code: 404 });
  });

  it('rate limits per route and globally with 429 in the envelope, but never the health probes', async () => {
    const strict = () =>
      app.inject({ method: 'POST', url: '/strict', payload: { n: 1 }, remoteAddress: '10.0.0.9' });
    expect((await strict()).statusCode).toBe(200);
    const limited = await strict();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers).toMatchObject(SECURITY_HEADERS);
    expect(limited.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(limited.json()).toMatchObject({ success: false, status_code: 429 });

    const global: number[] = [];
    for (let i = 0; i < 4; i++) {
      global.push((await app.inject({ url: '/refused', remoteAddress: '10.0.0.8' })).statusCode);
    }
    expect(global).toEqual([400, 400, 400, 429]);

    const probes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app.inject({ url: i % 2 ? '/ready' : '/health', remoteAddress: '10.0.0.8' }),
      ),
    );
    expect(probes.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
