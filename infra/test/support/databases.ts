import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMongoWireServer } from '@dogshop/mongo-wire-server';
import { startEmbeddedPostgres } from '@dogshop/shop/db/embedded-postgres';
import { freePort } from '@dogshop/child-processes';

export interface TestDatabase {
  url: string;
  stop: () => Promise<void>;
}

/**
 * A real PostgreSQL from the shop's own embedded-postgres helper, in a temporary folder, with an
 * empty database `name` (migrate it with the shop's `migrate` command).
 */
export async function startPostgres(name = 'shop'): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'infra-test-pg-'));
  // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach it.
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
  await server.createDatabase(name);
  return {
    url: server.url(name),
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * MongoDB for a service under test: MONGODB_URI when set (the GitHub pipeline's real MongoDB),
 * with a database of its own; otherwise the wire-protocol stand-in, in memory.
 */
export async function startMongo(): Promise<TestDatabase> {
  const database = `infra_test_${randomBytes(6).toString('hex')}`;
  const configured = process.env.MONGODB_URI;
  if (configured) return { url: withDatabase(configured, database), stop: async () => {} };
  const server = await startMongoWireServer({ log: () => {} });
  return { url: withDatabase(server.uri, database), stop: () => server.close() };
}

/** mongodb://h:1/?x=y + "d" → mongodb://h:1/d?x=y */
function withDatabase(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)\/?[^?]*(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}
