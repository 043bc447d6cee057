import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createDb, type Db } from '../db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** The Prisma client for the app's lifetime; its pool is closed with the app. */
export const database = fp<{ url: string; poolMax: number }>(
  async (app: FastifyInstance, opts) => {
    const db = createDb(opts.url, opts.poolMax);
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      await db.$disconnect();
    });
  },
  { name: 'database' },
);
