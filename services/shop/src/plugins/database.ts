import type { ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { openDb, poolStatsOf, type Db } from '../db/client.js';
import { sqlReads, type SqlReads } from '../db/sql-reads.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The catalogue's hot reads, on the same pool (db/sql-reads.ts). */
    reads: SqlReads;
  }
}

/** The Prisma client and the catalogue's reads for the app's lifetime; their pool is closed with the app. */
export const database: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config }: { config: ShopConfig }) => {
    if (!config.databaseUrl) throw new Error('databaseUrl: open the database first (openDatabase)');
    const { db, pool } = openDb(config.databaseUrl, config.databasePoolMax);
    app.decorate('db', db);
    app.decorate('reads', sqlReads(pool));
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
