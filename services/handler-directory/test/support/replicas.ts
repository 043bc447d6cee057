import { RedisServer, freePort } from '@dogshop/child-processes';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { DirectoryConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from './app.js';

/** Two replicas of the directory on one database and one (real) Redis. */
export interface TwoReplicas {
  /** The first replica, with the test accounts. */
  a: TestApp;
  /** The second: the same configuration, database included (A's tokens work on it). */
  b: FastifyInstance;
  redis: RedisServer;
  close: () => Promise<void>;
}

export async function startTwoReplicas(
  overrides: Partial<DirectoryConfig> = {},
): Promise<TwoReplicas> {
  const redis = new RedisServer(await freePort());
  await redis.start();
  const a = await createTestApp({ ...overrides, redisUrl: redis.url });
  const b = await buildApp(a.config);
  await b.ready();
  return {
    a,
    b,
    redis,
    close: async () => {
      await b.close();
      await a.close();
      await redis.remove();
    },
  };
}
