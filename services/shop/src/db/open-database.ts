import path from 'node:path';
import type { ShopConfig } from '../config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { applyMigrations } from './migrations.js';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = 'shop';

/**
 * `DATABASE_URL` when set; otherwise a real PostgreSQL started from `embedded-postgres` in the
 * data folder. The embedded database is migrated on open; a configured one is migrated by the
 * separate `migrate` command (a deploy step), unless `migrate` is asked for here.
 */
export async function openDatabase(
  config: Pick<ShopConfig, 'databaseUrl' | 'dataDir' | 'embeddedPgPort'>,
  opts: { migrate?: boolean; log?: (line: string) => void } = {},
): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    if (opts.migrate) await applyMigrations(config.databaseUrl);
    return { url: config.databaseUrl, embedded: false, close: async () => {} };
  }
  const server = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    log: opts.log,
  });
  await server.createDatabase(EMBEDDED_DATABASE);
  const url = server.url(EMBEDDED_DATABASE);
  const applied = await applyMigrations(url);
  if (applied.length > 0) opts.log?.(`applied migrations: ${applied.join(', ')}`);
  return { url, embedded: true, close: () => server.stop() };
}
