import type { PoolStats } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDb, poolStatsOf, type Db } from '../db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The connection pool's counts now (metrics, load shedding). */
    dbPoolStats: () => PoolStats;
  }
}

/** The Prisma client for the app's lifetime; its pool is closed with the app. */
export const database = fp<{ url: string; poolMax: number }>(
  async (app: FastifyInstance, opts) => {
    const { db, pool } = openDb(opts.url, opts.poolMax);
    app.decorate('db', db);
    app.decorate('dbPoolStats', () => poolStatsOf(pool));
    app.addHook('onClose', async () => {
      await db.$disconnect();
    });
  },
  { name: 'database' },
);
