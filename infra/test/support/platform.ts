// Both services started as their images start them (the Dockerfiles' CMD, compose's migrate
// command), here from the workspace builds, on real databases: the shop on an embedded
// PostgreSQL, the handler directory on MONGODB_URI or the wire-protocol stand-in.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMongo, startPostgres, type TestDatabase } from './databases.js';
import { dockerfileCommands, readCompose, withThisNode } from './deployment-files.js';
import { serviceDir } from './paths.js';
import {
  cleanEnv,
  freePort,
  type RunningProcess,
  runToCompletion,
  startProcess,
  waitForOk,
} from '@dogshop/child-processes';

export const SHOP_API_KEY = 'gateway-test-api-key-0123456789abcdef0123456789';
export const DIRECTORY_ADMIN = {
  username: 'gateway-admin',
  password: 'gateway-admin-password-1234',
};
const JWT_SECRET = 'gateway-test-jwt-secret-0123456789abcdef01';

export interface RunningService {
  port: number;
  process: RunningProcess;
}

export interface Platform {
  shop: RunningService;
  handlerDirectory: RunningService;
  stop: () => Promise<void>;
}

export async function startPlatform(): Promise<Platform> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'infra-platform-'));
  const databases: TestDatabase[] = [];
  const processes: RunningProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    await Promise.all(databases.map((d) => d.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [shop, handlerDirectory] = await Promise.all([
      (async () => {
        const database = await startPostgres();
        databases.push(database);
        await migrateShop(database.url);
        return startShop(
          { dataDir: path.join(dataDir, 'shop'), databaseUrl: database.url },
          processes,
        );
      })(),
      (async () => {
        const database = await startMongo();
        databases.push(database);
        const options = {
          dataDir: path.join(dataDir, 'handler-directory'),
          mongodbUri: database.url,
        };
        return startHandlerDirectory(options, processes);
      })(),
    ]);
    return { shop, handlerDirectory, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** How one replica of a service is started. */
interface ReplicaOptions {
  /** Its own data folder (the services lock theirs). */
  dataDir: string;
  /** Listen here (default: a free port). */
  port?: number;
  /** More environment, e.g. REDIS_URL or limits. */
  env?: Record<string, string>;
  /** The replica's name in failure messages. */
  name?: string;
}

/**
 * No shedding on the event loop's delay: these replicas share two cores with the rest of the test
 * run, where a starved process lags over its 1 s limit and would answer 503 to what a test checks
 * (service-kit's tests cover the shedding).
 */
const NO_LOOP_SHEDDING = { PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };

function shopEnv(opts: ReplicaOptions & { databaseUrl: string }, port?: number) {
  return cleanEnv({
    ...NO_LOOP_SHEDDING,
    NODE_ENV: 'production',
    SEED_DEMO: 'true', // the tests use the demo catalogue
    HOST: '127.0.0.1',
    ...(port === undefined ? {} : { PORT: String(port) }),
    LOG_LEVEL: 'info',
    DATA_DIR: opts.dataDir,
    DATABASE_URL: opts.databaseUrl,
    JWT_SECRET,
    WEBHOOK_SECRET_KEY: 'gateway-test-webhook-key-0123456789abcdef',
    SHOP_API_KEY,
    ...opts.env,
  });
}

/** Applies the shop's migrations to `databaseUrl` with compose's migrate command. */
export async function migrateShop(databaseUrl: string): Promise<void> {
  const migrate = readCompose().services['shop-migrate']?.command;
  if (!migrate) throw new Error('compose.yaml has no shop-migrate command');
  const env = shopEnv({ dataDir: os.tmpdir(), databaseUrl });
  await runToCompletion({ ...withThisNode(migrate), cwd: serviceDir('shop'), env });
}

/** One shop replica on a migrated database, as its image starts it; resolves once it is ready. */
export async function startShop(
  opts: ReplicaOptions & { databaseUrl: string },
  processes: RunningProcess[],
): Promise<RunningService> {
  const port = opts.port ?? (await freePort());
  const proc = startProcess({
    name: opts.name ?? 'shop',
    ...withThisNode(dockerfileCommands('shop').cmd),
    cwd: serviceDir('shop'),
    env: shopEnv(opts, port),
  });
  processes.push(proc);
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc);
  return { port, process: proc };
}

/** One handler-directory replica, as its image starts it; resolves once it is ready. */
export async function startHandlerDirectory(
  opts: ReplicaOptions & { mongodbUri: string },
  processes: RunningProcess[],
): Promise<RunningService> {
  const port = opts.port ?? (await freePort());
  const proc = startProcess({
    name: opts.name ?? 'handler-directory',
    ...withThisNode(dockerfileCommands('handler-directory').cmd),
    cwd: serviceDir('handler-directory'),
    env: cleanEnv({
      ...NO_LOOP_SHEDDING,
      NODE_ENV: 'production',
      SEED_DEMO: 'true', // the tests use the demo directory
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      DATA_DIR: opts.dataDir,
      MONGODB_URI: opts.mongodbUri,
      JWT_SECRET,
      ADMIN_USERNAME: DIRECTORY_ADMIN.username,
      ADMIN_PASSWORD: DIRECTORY_ADMIN.password,
      ...opts.env,
    }),
  });
  processes.push(proc);
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc);
  return { port, process: proc };
}
