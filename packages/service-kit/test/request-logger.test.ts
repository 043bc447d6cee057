// Each request's logger is made when it first writes (request-logger.ts): its lines are the ones
// pino's child writes (request id, redaction, the request line), and a request that writes
// nothing at the configured level makes no child at all.
import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { requestLog } from '../src/request-log.js';
import { serverOptions } from '../src/server-options.js';

type Line = Record<string, unknown> & { msg: string; level: number };

async function appAt(level: string) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const options = serverOptions({ logLevel: level });
  const app = Fastify({ ...options, logger: { ...(options.logger as object), stream } });
  // Counts the children pino makes for requests (the app's own logger is their parent).
  let children = 0;
  const child = app.log.child.bind(app.log);
  app.log.child = (...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  };
  await app.register(requestLog);
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talks', async (request) => {
    request.log.debug('not at info');
    request.log.warn({ user: { password: 'hunter2' } }, 'careful');
    request.log.warn('again');
    return { ok: true };
  });
  await app.ready();
  return { app, lines, children: () => children };
}

describe('request loggers', () => {
  it('write the same lines as pino children: request id, redaction, the request line', async () => {
    const { app, lines, children } = await appAt('info');
    const res = await app.inject({ url: '/talks', headers: { 'x-request-id': 'req-talks-1' } });
    expect(res.statusCode).toBe(200);
    const written = lines.filter((l) => l.request_id === 'req-talks-1');
    expect(written.map((l) => l.msg)).toEqual(['careful', 'again', 'GET /talks 200']);
    expect(written[0]!.user).toEqual({ password: '[redacted]' });
    // One child for the request, made at its first line and reused.
    expect(children()).toBe(1);
    await app.close();
  });

  it('make no child for a request that writes nothing at the level', async () => {
    const { app, lines, children } = await appAt('warn');
    expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    // A line at the level still comes, with its request id.
    await app.inject({ url: '/talks', headers: { 'x-request-id': 'req-talks-2' } });
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.msg, l.request_id])).toEqual([
      ['careful', 'req-talks-2'],
      ['again', 'req-talks-2'],
    ]);
    await app.close();
  });
});
