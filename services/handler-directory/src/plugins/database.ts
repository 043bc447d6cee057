import type { ServiceContext, ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DirectoryConfig } from '../config.js';
import { openDirectoryDb, type DirectoryDb } from '../db/connection.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: DirectoryDb;
  }
}

/** The Mongoose connection and models for the app's lifetime; closed with the app. */
export const database: ServicePlugin<DirectoryConfig> = fp(
  async (app: FastifyInstance, { config }: ServiceContext<DirectoryConfig>) => {
    if (!config.mongodbUri) throw new Error('mongodbUri: open the database first (openDatabase)');
    const db = await openDirectoryDb(config.mongodbUri, {
      ...(config.mongodbDbName ? { dbName: config.mongodbDbName } : {}),
      historyRetentionDays: config.historyRetentionDays,
    });
    app.decorate('db', db);
    app.decorate('database', db);
    app.addHook('onClose', async () => {
      await db.close();
    });
  },
  { name: 'database' },
);
