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
      startShop(dataDir, databases, processes),
      startHandlerDirectory(dataDir, databases, processes),
    ]);
    return { shop, handlerDirectory, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startShop(
  dataDir: string,
  databases: TestDatabase[],
  processes: RunningProcess[],
): Promise<RunningService> {
  const database = await startPostgres();
  databases.push(database);
  const port = await freePort();
  const env = cleanEnv({
    NODE_ENV: 'production',
    SEED_DEMO: 'true', // the tests use the demo catalogue
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    DATA_DIR: path.join(dataDir, 'shop'),
    DATABASE_URL: database.url,
    JWT_SECRET,
    SHOP_API_KEY,
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
  processes.push(proc);
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc);
  return { port, process: proc };
}

async function startHandlerDirectory(
  dataDir: string,
  databases: TestDatabase[],
  processes: RunningProcess[],
): Promise<RunningService> {
  const database = await startMongo();
  databases.push(database);
  const port = await freePort();
  const proc = startProcess({
    name: 'handler-directory',
    ...withThisNode(dockerfileCommands('handler-directory').cmd),
    cwd: serviceDir('handler-directory'),
    env: cleanEnv({
      NODE_ENV: 'production',
      SEED_DEMO: 'true', // the tests use the demo directory
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      DATA_DIR: path.join(dataDir, 'handler-directory'),
      MONGODB_URI: database.url,
      JWT_SECRET,
      ADMIN_USERNAME: DIRECTORY_ADMIN.username,
      ADMIN_PASSWORD: DIRECTORY_ADMIN.password,
    }),
  });
  processes.push(proc);
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc);
  return { port, process: proc };
}
