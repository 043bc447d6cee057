// Which MongoDB the server, the commands and the tests talk to, first match wins:
//   1. MONGODB_URI when set (production, the CI pipeline);
//   2. a real mongod (a replica set of one) started by mongodb-memory-server, only when a mongod binary is already on
//      this machine (start-up never downloads one: that cannot finish "without waiting long";
//      `pnpm mongod:download` fetches one into the cache ahead of time);
//   3. the MongoDB wire-protocol stand-in (@dogshop/mongo-wire-server), for development and tests
//      only.
// With a data folder (the embedded default) the data survives restarts: mongod keeps it in
// <dataDir>/mongod, the stand-in in <dataDir>/mongo-standin.json. The two are separate stores.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { mongo } from 'mongoose';
import {
  openEmbeddedDatabase,
  waitUntilReachable,
  withoutCredentials,
  type OpenedDatabase,
} from '@dogshop/service-kit';
import { pingMongo } from './connection.js';

export { withoutCredentials };

/** Which embedded MongoDB it is; kept in the data folder's lock and named in `description`. */
type EmbeddedKind = 'mongodb-memory-server' | 'stand-in';

export type { OpenedDatabase };

export interface OpenDatabaseOptions {
  /** MONGODB_URI. */
  uri?: string | undefined;
  /** How long to wait for MONGODB_URI to answer before failing (DATABASE_WAIT_SECONDS). */
  waitMs?: number;
  /** Keep the data in this folder (the embedded default); omit for a throw-away database. */
  dataDir?: string;
  /**
   * When another process (the running server) owns the data folder's database, connect to it
   * instead of refusing. Commands join; a second server refuses.
   */
  joinRunning?: boolean;
  log: (line: string) => void;
}

/** What this process started, before the data folder's lock is added to `close`. */
interface Started {
  url: string;
  kind: EmbeddedKind;
  description: string;
  close(): Promise<void>;
}

/** How long a located mongod may take to start before the stand-in is used instead. */
const MONGOD_START_TIMEOUT_MS = 10_000;
export const STAND_IN_FILE = 'mongo-standin.json';
/** The data folder's lock: which process owns its embedded database, and where it listens. */
export const LOCK_FILE = 'mongo.lock';

export async function openDatabase(opts: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (opts.uri) {
    const uri = opts.uri;
    if (opts.waitMs !== undefined) {
      await waitUntilReachable({
        attempt: () => pingMongo(uri, 2_000),
        timeoutMs: opts.waitMs,
        onWaiting: () => opts.log(`waiting for MongoDB at ${withoutCredentials(uri)}`),
        // Authentication failed (18) or not authorised (13): the server answers, the URI is wrong.
        isPermanent: (error) => [13, 18].includes((error as { code?: number }).code ?? 0),
        describeFailure: (error) =>
          `cannot use MongoDB at MONGODB_URI (${withoutCredentials(uri)}): ${firstLineOf(error)} ` +
          `(waited up to ${Math.round(opts.waitMs! / 1000)} s); check MONGODB_URI and that the server runs`,
      });
    }
    return {
      url: uri,
      embedded: false,
      description: `MongoDB at MONGODB_URI (${withoutCredentials(uri)})`,
      close: async () => {},
    };
  }
  if (!opts.dataDir) {
    const { kind: _kind, ...started } = await startEmbedded(undefined, opts.log);
    return { ...started, embedded: true };
  }

  const dataDir = opts.dataDir;
  return openEmbeddedDatabase({
    dataDir,
    lockFile: LOCK_FILE,
    what: 'the embedded database',
    urlVariable: 'MONGODB_URI',
    joinRunning: opts.joinRunning,
    start: async () => {
      const started = await startEmbedded(dataDir, opts.log);
      return { ...started, stop: () => started.close() };
    },
  });
}

async function startEmbedded(
  dataDir: string | undefined,
  log: (line: string) => void,
): Promise<Started> {
  const mongod = await startMemoryServer(dataDir, log);
  if (mongod) return mongod;
  const persistPath = dataDir ? path.join(dataDir, STAND_IN_FILE) : undefined;
  // A development dependency, absent from the production bundle: loaded only when it is started
  // (production requires MONGODB_URI and never gets here).
  const { startMongoWireServer } = await import('@dogshop/mongo-wire-server');
  const server = await startMongoWireServer({ ...(persistPath ? { persistPath } : {}), log });
  return {
    url: server.uri,
    kind: 'stand-in',
    description:
      `the MongoDB wire-protocol stand-in at ${server.uri} (development and tests only), ` +
      (persistPath ? `data in ${persistPath}` : 'in memory'),
    close: () => server.close(),
  };
}

async function startMemoryServer(
  dataDir: string | undefined,
  log: (line: string) => void,
): Promise<Started | undefined> {
  const located = await locateMongod();
  if (!located.binary) {
    log(`mongodb-memory-server skipped: ${located.reason}; using the wire-protocol stand-in`);
    return undefined;
  }
  const dbPath = dataDir ? path.join(dataDir, 'mongod') : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const { MongoMemoryServer } = await import('mongodb-memory-server-core');
  // A replica set of one, as in production: the directory writes in transactions, which a
  // standalone mongod refuses.
  const starting = MongoMemoryServer.create({
    binary: { systemBinary: located.binary },
    instance: {
      ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}),
      launchTimeout: MONGOD_START_TIMEOUT_MS,
      replSet: REPLICA_SET,
    },
  });
  try {
    const server = await withTimeout(starting, MONGOD_START_TIMEOUT_MS + 2_000);
    const url = `${server.getUri()}?directConnection=true`;
    await withTimeout(initiateReplicaSet(url), MONGOD_START_TIMEOUT_MS);
    return {
      url,
      kind: 'mongodb-memory-server',
      description: `mongod ${located.binary} via mongodb-memory-server at ${server.getUri()}, ${dbPath ? `data in ${dbPath}` : 'throw-away data'}`,
      close: async () => {
        await server.stop({ doCleanup: !dbPath });
      },
    };
  } catch (error) {
    // A late start must not leave a mongod behind.
    starting.then((server) => server.stop({ doCleanup: !dbPath })).catch(() => {});
    log(
      `mongodb-memory-server could not start ${located.binary} (${String(error)}); using the wire-protocol stand-in`,
    );
    return undefined;
  }
}

const REPLICA_SET = 'rs0';
/** MongoDB's code for a replica set initiated before (a data folder from an earlier start). */
const ALREADY_INITIALIZED = 23;

/** Initiates the one-member set (once per data folder) and waits until it is primary. */
async function initiateReplicaSet(url: string): Promise<void> {
  const client = new mongo.MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    const admin = client.db('admin');
    try {
      await admin.command({ replSetInitiate: {} });
    } catch (error) {
      if ((error as { code?: number }).code !== ALREADY_INITIALIZED) throw error;
    }
    while (!(await admin.command({ hello: 1 })).isWritablePrimary) await sleep(100);
  } finally {
    await client.close();
  }
}

/** A mongod already on this machine: MONGOMS_SYSTEM_BINARY, `mongod` on PATH, or the download cache. */
export async function locateMongod(): Promise<{ binary?: string; reason: string }> {
  const configured = process.env.MONGOMS_SYSTEM_BINARY;
  if (configured) {
    return isExecutable(configured)
      ? { binary: configured, reason: 'MONGOMS_SYSTEM_BINARY' }
      : { reason: `MONGOMS_SYSTEM_BINARY=${configured} is not an executable file` };
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, process.platform === 'win32' ? 'mongod.exe' : 'mongod');
    if (isExecutable(candidate)) return { binary: candidate, reason: 'mongod on PATH' };
  }
  try {
    const { DryMongoBinary } = await import('mongodb-memory-server-core');
    const options = await DryMongoBinary.generateOptions();
    const cached = await DryMongoBinary.locateBinary(options);
    if (cached) return { binary: cached, reason: 'mongodb-memory-server cache' };
    return {
      reason:
        `no mongod binary on this machine (MONGOMS_SYSTEM_BINARY unset, none on PATH, ` +
        `none for MongoDB ${options.version} in ${options.downloadDir}); run \`pnpm mongod:download\` to fetch one`,
    };
  } catch (error) {
    return { reason: `could not look for a mongod binary (${String(error)})` };
  }
}

const firstLineOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0];

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
