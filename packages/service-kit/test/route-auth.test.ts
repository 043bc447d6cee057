import { describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyRequest } from 'fastify';
import { apiDocs, errorEnvelope, routeAuth, unauthorized } from '../src/index.js';

async function build(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  await app.register(errorEnvelope, { body: (status, message) => ({ status, message }) });
  await app.register(apiDocs, {
    title: 't',
    version: '1',
    description: 't',
    securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'x-key' } },
  });
  await app.register(routeAuth, {
    schemes: {
      key: {
        check: async (request: FastifyRequest) => {
          if (request.headers['x-key'] !== 'open sesame') throw unauthorized('no key');
        },
        security: [{ Key: [] }],
      },
    },
  });
  register(app);
  await app.ready();
  return app;
}

describe('auth declared on each route', () => {
  it('refuses to register a route that does not declare its auth', async () => {
    await expect(build((app) => app.get('/x', async () => 'x'))).rejects.toThrow(
      "GET /x: declare config.auth ('none' if public)",
    );
    await expect(
      build((app) => app.get('/x', { config: { auth: 'cookie' } }, async () => 'x')),
    ).rejects.toThrow("unknown auth scheme 'cookie'");
  });

  it('checks the declared scheme before the handler and documents it as the security', async () => {
    let handled = 0;
    const app = await build((app) => {
      app.get('/private', { schema: { summary: 'p' }, config: { auth: 'key' } }, async () => {
        handled += 1;
        return { ok: true };
      });
      app.get('/public', { schema: { summary: 'q' }, config: { auth: 'none' } }, async () => 'hi');
    });
    expect((await app.inject({ url: '/private' })).statusCode).toBe(401);
    expect(handled).toBe(0);
    const ok = await app.inject({ url: '/private', headers: { 'x-key': 'open sesame' } });
    expect(ok.json()).toEqual({ ok: true });
    expect((await app.inject({ url: '/public' })).statusCode).toBe(200);
    const doc = app.swagger() as unknown as {
      paths: Record<string, { get: { security: unknown } }>;
    };
    expect(doc.paths['/private']!.get.security).toEqual([{ Key: [] }]);
    expect(doc.paths['/public']!.get.security).toEqual([]);
  });

  it('marks every answer of a personal route private, no-store, refusals included', async () => {
    const app = await build((app) => {
      app.get('/me', { config: { auth: 'key', personal: true } }, async () => ({ me: 1 }));
      app.get('/catalogue', { config: { auth: 'key' } }, async () => ({ items: [] }));
    });
    const refused = await app.inject({ url: '/me' });
    expect([refused.statusCode, refused.headers['cache-control']]).toEqual([
      401,
      'private, no-store',
    ]);
    const mine = await app.inject({ url: '/me', headers: { 'x-key': 'open sesame' } });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    const shared = await app.inject({ url: '/catalogue', headers: { 'x-key': 'open sesame' } });
    expect(shared.headers['cache-control']).toBeUndefined();
  });
});
