// The services under test run as real servers on loopback, each in its own process started from
// its build (`node dist/server.js`), as in production.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import {
  cleanEnv,
  freePort,
  startProcess,
  waitForOk,
  type RunningProcess,
} from '@dogshop/child-processes';

/** The folder of a package the bench depends on (workspace packages are linked into node_modules). */
export function packageDir(name: string): string {
  return realpathSync(path.join(import.meta.dirname, '..', '..', 'node_modules', name));
}

export const SHOP_API_KEY = 'bench-api-key-0123456789abcdef0123456789abcdef';
export const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef0123456789';
/** The shop's key for its webhook signing secrets (production requires it). */
export const WEBHOOK_SECRET_KEY = 'bench-webhook-key-0123456789abcdef0123456789';
export const ADMIN_USERNAME = 'benchadmin';
export const ADMIN_PASSWORD = 'bench-admin-password-2026';
/** The shop's pool (DATABASE_POOL_MAX; the service's default) and Mongoose's maxPoolSize. */
export const SHOP_POOL_MAX = 10;
export const MONGO_POOL_MAX = 10;
/** High enough that no benchmark meets a rate limit. */
const NO_LIMIT = '100000000';

export interface RunningService {
  name: string;
  url: string;
  process: RunningProcess;
  stop(): Promise<void>;
}

async function startService(
  name: string,
  opts: { dir: string; args: string[]; env: Record<string, string>; extraNodeArgs?: string[] },
): Promise<RunningService> {
  const port = await freePort();
  const proc = startProcess({
    name,
    command: process.execPath,
    args: [...(opts.extraNodeArgs ?? []), ...opts.args],
    cwd: opts.dir,
    env: cleanEnv({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      JWT_SECRET,
      // The shop's (production requires it); the directory reads no such variable.
      WEBHOOK_SECRET_KEY,
      RATE_LIMIT_PER_MINUTE: NO_LIMIT,
      AUTH_RATE_LIMIT_PER_MINUTE: NO_LIMIT,
      ...opts.env,
    }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/ready`, proc, 60_000);
  return { name, url, process: proc, stop: async () => void (await proc.stop()) };
}

/** The compiled entry point; BENCH_*_ENTRY lets an experiment run another build of the same package. */
const entry = (variable: string) => process.env[variable] || 'dist/server.js';

export function startShop(
  databaseUrl: string,
  opts: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<RunningService> {
  return startService('shop', {
    dir: packageDir('@dogshop/shop'),
    args: [
      '--experimental-wasm-modules',
      '--disable-warning=ExperimentalWarning',
      entry('BENCH_SHOP_ENTRY'),
    ],
    extraNodeArgs: opts.nodeArgs ?? [],
    env: {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: String(SHOP_POOL_MAX),
      SHOP_API_KEY,
      // No delivery worker: a figure's captured SQL holds the request's statements only (the
      // worker numbers events right after an order's answer). W1 turns it on.
      WEBHOOK_DELIVERY: 'false',
      ...opts.env,
    },
  });
}

/**
 * The catalogue floor (bare Fastify, `pg`, the shop's own read functions: F-*), in its own process
 * with the shop's database settings and API key, beside the shop.
 */
export function startCatalogueFloor(
  databaseUrl: string,
  opts: { nodeArgs?: string[] } = {},
): Promise<RunningService> {
  return startService('catalogue-floor', {
    dir: path.join(import.meta.dirname, '..', 'servers'),
    args: ['catalogue-floor.mjs'],
    extraNodeArgs: opts.nodeArgs ?? [],
    env: {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: String(SHOP_POOL_MAX),
      SHOP_API_KEY,
    },
  });
}

export function startHandlerDirectory(
  mongodbUri: string,
  opts: { nodeArgs?: string[] } = {},
): Promise<RunningService> {
  return startService('handler-directory', {
    dir: packageDir('@dogshop/handler-directory'),
    args: [entry('BENCH_DIRECTORY_ENTRY')],
    extraNodeArgs: opts.nodeArgs ?? [],
    env: {
      MONGODB_URI: mongodbUri,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      LOGIN_MAX_FAILURES: '1000',
    },
  });
}

/** The MongoDB wire-protocol stand-in, in its own process (so its work is not the service's). */
export async function startMongoStandIn(): Promise<{ uri: string; process: RunningProcess }> {
  const port = await freePort();
  const cli = path.join(packageDir('@dogshop/mongo-wire-server'), 'dist', 'cli.js');
  let announced: () => void = () => {};
  const ready = new Promise<void>((resolve) => (announced = resolve));
  const proc = startProcess({
    name: 'mongo-wire-server',
    command: process.execPath,
    args: [cli, '--port', String(port), '--host', '127.0.0.1'],
    cwd: packageDir('@dogshop/mongo-wire-server'),
    env: cleanEnv({}),
    onOutput: (text) => {
      if (text.includes('listening on')) announced();
    },
  });
  await Promise.race([
    ready,
    proc.exited.then(() => {
      throw new Error(`mongo-wire-server exited:\n${proc.output()}`);
    }),
  ]);
  return { uri: `mongodb://127.0.0.1:${port}`, process: proc };
}

/** A bare Fastify hello world (B1's floor), in its own process. */
export async function startHelloWorld(): Promise<RunningService> {
  const port = await freePort();
  const script = path.join(import.meta.dirname, '..', 'servers', 'hello-world.mjs');
  const proc = startProcess({
    name: 'hello-world',
    command: process.execPath,
    args: [script],
    cwd: path.dirname(script),
    env: cleanEnv({ PORT: String(port) }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(url, proc, 60_000);
  return { name: 'hello-world', url, process: proc, stop: async () => void (await proc.stop()) };
}
