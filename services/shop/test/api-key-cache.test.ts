// The API-key cache and the invalidation signal, on two replicas sharing one database and one
// real Redis: `api-key:revoke` (the CLI, its own process, with the same REDIS_URL) ends a key both
// replicas remember at once instead of after the cache's lifetime; while Redis is down the cache
// is bypassed, so a revocation holds at once even though nobody could be told.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RedisServer, freePort, sleep } from '@dogshop/child-processes';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/modules/api-keys/service.js';
import { createTestApp, type TestApp } from './support/app.js';
import { runCliInProcess } from './support/cli.js';

const CHILD_TIMEOUT = 60_000;
/** Far longer than any test waits: a key refused in time was refused because it was told. */
const CACHE_MS = 120_000;

let redis: RedisServer;
let a: TestApp;
let b: FastifyInstance;

beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  a = await createTestApp({ redisUrl: redis.url, apiKeyCacheMs: CACHE_MS });
  // The same configuration, database included: a second replica.
  b = await buildApp(a.config);
  await b.ready();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await redis?.remove();
});

const cli = (env: Record<string, string>, ...args: string[]) =>
  runCliInProcess(a.config.databaseUrl, args, env);

const withKey = (app: FastifyInstance, key: string) =>
  app.inject({ method: 'GET', url: '/categories', headers: { 'x-api-key': key } });

/** Both replicas' answers to `key`, until `status` or 2 s (the cache would take 120 s). */
async function bothAnswer(key: string, status: number) {
  const end = Date.now() + 2_000;
  for (;;) {
    const statuses = [(await withKey(a.app, key)).statusCode, (await withKey(b, key)).statusCode];
    if (statuses.every((s) => s === status)) return;
    if (Date.now() > end) throw new Error(`still ${statuses.join(', ')} after 2 s`);
    await sleep(20);
  }
}

describe('api-key:revoke with REDIS_URL', () => {
  it(
    'ends a key both replicas remember at once',
    async () => {
      const { key, info } = await createApiKey(a.app.db, 'revoked through Redis');
      await bothAnswer(key, 200); // now remembered by both
      const revoked = await cli({ REDIS_URL: redis.url }, 'api-key:revoke', String(info.id));
      expect(revoked).toMatchObject({ code: 0, stdout: `revoked API key #${info.id}\n` });
      expect(revoked.stderr).toBe('');
      await bothAnswer(key, 401);
    },
    CHILD_TIMEOUT,
  );

  it(
    'while Redis is down: says the servers could not be told, and they refuse the key at once anyway',
    async () => {
      const { key, info } = await createApiKey(a.app.db, 'revoked during an outage');
      await bothAnswer(key, 200);
      await redis.stop();
      try {
        const revoked = await cli({ REDIS_URL: redis.url }, 'api-key:revoke', String(info.id));
        expect(revoked).toMatchObject({ code: 0, stdout: `revoked API key #${info.id}\n` });
        expect(revoked.stderr).toMatch(/within 5 s .*Redis could not be told/);
        // Not sure to hear revocations, the replicas look every key up.
        await bothAnswer(key, 401);
        const other = await createApiKey(a.app.db, 'still good');
        await bothAnswer(other.key, 200);
      } finally {
        await redis.start();
      }
    },
    CHILD_TIMEOUT,
  );

  it(
    'without REDIS_URL says the servers notice within the cache lifetime (an empty one is unset)',
    async () => {
      const { info } = await createApiKey(a.app.db, 'revoked without Redis');
      const revoked = await cli({ REDIS_URL: '' }, 'api-key:revoke', String(info.id));
      expect(revoked).toMatchObject({ code: 0, stdout: `revoked API key #${info.id}\n` });
      expect(revoked.stderr).toMatch(/within 5 s .*without REDIS_URL they cannot be told/);
    },
    CHILD_TIMEOUT,
  );
});
