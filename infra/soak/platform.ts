// Both services as real processes (started as their images start them, from the workspace
// builds) on databases this process controls, so that a soak run can stop and restart them:
// a real PostgreSQL from the shop's embedded-postgres helper (same folder and port after a
// restart) and the MongoDB wire-protocol stand-in (same port, data persisted to a file).
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startMongoWireServer, type MongoWireServer } from '@dogshop/mongo-wire-server';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@dogshop/shop/db/embedded-postgres';
import { dockerfileCommands, readCompose, withThisNode } from '../test/support/deployment-files.js';
import { serviceDir } from '../test/support/paths.js';
import {
  cleanEnv,
  freePort,
  type RunningProcess,
  runToCompletion,
  startProcess,
  waitForOk,
} from '@dogshop/child-processes';

export const SHOP_API_KEY = 'soak-api-key-0123456789abcdef0123456789abcdef';
export const DIRECTORY_ADMIN = { username: 'soak-admin', password: 'soak-admin-password-1234' };
const JWT_SECRET = 'soak-jwt-secret-0123456789abcdef0123456789';
/**
 * Every request comes from 127.0.0.1: the per-client limits would otherwise throttle the load. And
 * no shedding on the event loop's delay: the soak checks faults and shutdowns, not overload, and
 * its CI version shares two cores with the rest of the test run, where a starved service lags
 * over its 1 s limit and refuses with 503 what no fault explains (CI, 2026-11-29: 38 such 503s
 * of the shop in 0.3 ms each, 6 s after its database was back). service-kit's tests cover the
 * shedding; the pool's limit stays on.
 */
const UNLIMITED = {
  RATE_LIMIT_PER_MINUTE: '10000000',
  AUTH_RATE_LIMIT_PER_MINUTE: '10000000',
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
};

export interface Service {
  name: 'shop' | 'handler-directory';
  url: string;
  process: RunningProcess;
}

export interface Platform {
  shop: Service;
  handlerDirectory: Service;
  /** The shop's database URL (for the invariant checks). */
  shopDatabaseUrl: string;
  /** The handler directory's MongoDB URI. */
  directoryUri: string;
  /** The last of PostgreSQL's own output (its log), across restarts. */
  postgresOutput(): string;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  stopMongo(): Promise<void>;
  startMongo(): Promise<void>;
  /** Stops whatever still runs and removes the temporary folder. */
  close(): Promise<void>;
}

export async function startPlatform(): Promise<Platform> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  // Run as root, embedded-postgres runs the server as a `postgres` user, who must reach it.
  chmodSync(dir, 0o755);
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // PostgreSQL, kept on disk so that a stop and start is a restart, not a new database.
    const pgDir = path.join(dir, 'postgres');
    const pgPort = await portOutsideEphemeralRange();
    let pgOutput = '';
    const serverOutput = (text: string) => {
      pgOutput = (pgOutput + text).slice(-6_000);
    };
    // The same folder and port at every start, its output collected across restarts.
    const launchPostgres = () =>
      startEmbeddedPostgres({ dir: pgDir, port: pgPort, persistent: true, serverOutput });
    let postgres: EmbeddedDatabase | undefined = await launchPostgres();
    cleanups.push(async () => postgres?.stop());
    await postgres.createDatabase('shop');
    const shopDatabaseUrl = postgres.url('shop');

    // The stand-in, persisting to a file: closing it writes everything acknowledged.
    const persistPath = path.join(dir, 'mongo.json');
    let mongo: MongoWireServer | undefined = await startMongoWireServer({
      persistPath,
      port: await portOutsideEphemeralRange(),
      log: () => {},
    });
    const mongoPort = mongo.port;
    cleanups.push(async () => mongo?.close());
    const directoryUri = `${mongo.uri}/soak`;

    const [shop, handlerDirectory] = await Promise.all([
      startShop(dir, shopDatabaseUrl, cleanups),
      startHandlerDirectory(dir, directoryUri, cleanups),
    ]);
    return {
      shop,
      handlerDirectory,
      shopDatabaseUrl,
      directoryUri,
      postgresOutput: () => pgOutput,
      stopPostgres: async () => {
        await postgres?.stop();
        postgres = undefined;
      },
      startPostgres: async () => {
        postgres = await launchPostgres();
      },
      stopMongo: async () => {
        await mongo?.close();
        mongo = undefined;
      },
      startMongo: async () => {
        mongo = await startMongoWireServer({ persistPath, port: mongoPort, log: () => {} });
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A free port below the kernel's ephemeral range. The databases restart on the port they had; an
 * ephemeral port could meanwhile be handed to some outgoing connection as its local port, and the
 * restart would fail to listen. Real databases listen on fixed low ports (5432, 27017) too.
 */
async function portOutsideEphemeralRange(): Promise<number> {
  let low = 32_768;
  try {
    low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
  } catch {
    // not Linux: the common default
  }
  const from = Math.max(10_000, low - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from - 1));
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port between ${from} and ${low}`);
}

async function startShop(
  dir: string,
  databaseUrl: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<Service> {
  const port = await freePort();
  const env = cleanEnv({
    NODE_ENV: 'production',
    SEED_DEMO: 'true', // the traffic uses the demo catalogue
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'warn',
    DATA_DIR: path.join(dir, 'shop'),
    DATABASE_URL: databaseUrl,
    JWT_SECRET,
    WEBHOOK_SECRET_KEY: 'soak-webhook-key-0123456789abcdef0123456789',
    SHOP_API_KEY,
    ...UNLIMITED,
  });
  const migrate = readCompose().services['shop-migrate']?.command;
  if (!migrate) throw new Error('compose.yaml has no shop-migrate command');
  await runToCompletion({ ...withThisNode(migrate), cwd: serviceDir('shop'), env });
  const proc = startProcess({
    name: 'shop',
    ...withThisNode(dockerfileCommands('shop').cmd),
    cwd: serviceDir('shop'),
    env,
  });
  cleanups.push(() => proc.stop('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/ready`, proc);
  return { name: 'shop', url, process: proc };
}

async function startHandlerDirectory(
  dir: string,
  uri: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<Service> {
  const port = await freePort();
  const proc = startProcess({
    name: 'handler-directory',
    ...withThisNode(dockerfileCommands('handler-directory').cmd),
    cwd: serviceDir('handler-directory'),
    env: cleanEnv({
      NODE_ENV: 'production',
      SEED_DEMO: 'true', // the traffic uses the demo directory
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'warn',
      DATA_DIR: path.join(dir, 'handler-directory'),
      MONGODB_URI: uri,
      JWT_SECRET,
      ADMIN_USERNAME: DIRECTORY_ADMIN.username,
      ADMIN_PASSWORD: DIRECTORY_ADMIN.password,
      LOGIN_MAX_FAILURES: '1000',
      ...UNLIMITED,
    }),
  });
  cleanups.push(() => proc.stop('SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/ready`, proc);
  return { name: 'handler-directory', url, process: proc };
}
