import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDirectoryDb, type DirectoryDb } from '../db/connection.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: DirectoryDb;
  }
}

/** The Mongoose connection and models for the app's lifetime; closed with the app. */
export const database = fp<{ uri: string; dbName?: string | undefined }>(
  async (app: FastifyInstance, opts) => {
    const db = await openDirectoryDb(opts.uri, opts.dbName);
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      await db.close();
    });
  },
  { name: 'database' },
);
