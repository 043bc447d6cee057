import type { ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { openDb, poolStatsOf, type Db } from '../db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** The Prisma client for the app's lifetime; its pool is closed with the app. */
export const database: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config }: { config: ShopConfig }) => {
    if (!config.databaseUrl) throw new Error('databaseUrl: open the database first (openDatabase)');
    const { db, pool } = openDb(config.databaseUrl, config.databasePoolMax);
    app.decorate('db', db);
    app.decorate('database', {
      poolStats: () => poolStatsOf(pool),
      ping: async () => {
        await db.$queryRaw`SELECT 1`;
      },
    });
    app.addHook('onClose', async () => {
      await db.$disconnect();
    });
  },
  { name: 'database' },
);
