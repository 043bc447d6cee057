// What a newcomer or an operator sees when a service cannot start: each case runs the built server
// (or an operator command) as a real process and asserts the exit code, a message that names the
// cause and the fix, and no stack trace.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  cleanEnv,
  freePort,
  startProcess,
  waitForOk,
  type RunningProcess,
} from '@dogshop/child-processes';
import { serviceDir } from './support/paths.js';

type Service = 'shop' | 'handler-directory';

const ENTRY = { server: 'dist/server.js', cli: 'dist/cli/index.js' };
const NODE_FLAGS: Record<Service, string[]> = {
  shop: ['--experimental-wasm-modules', '--disable-warning=ExperimentalWarning'],
  'handler-directory': [],
};
const STACK_LINE = /^\s+at /m;

const workDir = mkdtempSync(path.join(os.tmpdir(), 'startup-test-'));
// Run as root, the embedded PostgreSQL runs as `postgres`, who must enter the folder (mkdtemp: 0700).
chmodSync(workDir, 0o755);
const running: RunningProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((proc) => proc.stop('SIGKILL')));
  rmSync(workDir, { recursive: true, force: true });
});

function start(
  service: Service,
  entry: keyof typeof ENTRY,
  vars: Record<string, string>,
  args: string[] = [],
): RunningProcess {
  const proc = startProcess({
    name: `${service} ${entry}`,
    command: process.execPath,
    args: [...NODE_FLAGS[service], ENTRY[entry], ...args],
    cwd: serviceDir(service),
    env: cleanEnv({ LOG_LEVEL: 'warn', PASSWORD_THREAD_NICENESS: '0', ...vars }),
  });
  running.push(proc);
  return proc;
}

/** Runs until exit; resolves the exit code and everything printed. */
async function run(
  service: Service,
  entry: keyof typeof ENTRY,
  vars: Record<string, string>,
  args: string[] = [],
) {
  const proc = start(service, entry, vars, args);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

async function serve(service: Service, vars: Record<string, string>) {
  const port = await freePort();
  const proc = start(service, 'server', { PORT: String(port), ...vars });
  await waitForOk(`http://127.0.0.1:${port}/ready`, proc, 60_000);
  return { port, proc };
}

const dataDir = (name: string) => path.join(workDir, name);

function expectOneClearFailure(result: { code: number | null; output: string }, cause: RegExp) {
  expect({ code: result.code, cause: cause.test(result.output) }).toEqual({ code: 1, cause: true });
  expect(result.output).not.toMatch(STACK_LINE);
  expect(result.output.trim().split('\n').length).toBeLessThanOrEqual(2);
}

async function occupiedPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each<Service>(['shop', 'handler-directory'])('%s start-up failures', (service) => {
  const databaseVar = service === 'shop' ? 'DATABASE_URL' : 'MONGODB_URI';

  it('a bad enum value names the variable and lists the allowed values', async () => {
    const result = await run(service, 'server', { NODE_ENV: 'prod' });
    expectOneClearFailure(
      result,
      /configuration error: NODE_ENV: must be one of development, production, test \(got "prod"\)/,
    );
  });

  it('a number in another notation than plain decimal is a configuration error', async () => {
    const result = await run(service, 'server', { PORT: '0x10' });
    expectOneClearFailure(result, /PORT: must be a plain decimal number \(got "0x10"\)/);
  });

  it(`production without ${databaseVar} refuses to start with the embedded database`, async () => {
    const result = await run(service, 'server', {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-secret-of-at-least-32-characters',
      DATA_DIR: dataDir(`${service}-production`),
    });
    expectOneClearFailure(
      result,
      new RegExp(`configuration error: ${databaseVar}: required when NODE_ENV=production`),
    );
  });

  it(`a ${databaseVar} nobody answers: a bounded wait, then one line`, async () => {
    const deadPort = await freePort();
    const url =
      service === 'shop'
        ? `postgresql://shop:secret@127.0.0.1:${deadPort}/shop`
        : `mongodb://127.0.0.1:${deadPort}/directory`;
    const started = Date.now();
    const result = await run(service, 'server', {
      [databaseVar]: url,
      DATABASE_WAIT_SECONDS: '2',
      PORT: String(await freePort()),
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expectOneClearFailure(
      result,
      new RegExp(
        `cannot use \\w+ at ${databaseVar} \\(.*127\\.0\\.0\\.1:${deadPort}.*\\).*ECONNREFUSED`,
      ),
    );
    expect(result.output).not.toContain('secret');
  });

  it('a port in use names the port and the process holding it, before anything starts', async () => {
    const busy = await occupiedPort();
    try {
      const result = await run(service, 'server', {
        PORT: String(busy.port),
        DATA_DIR: dataDir(`${service}-busy-port`),
      });
      expectOneClearFailure(
        result,
        new RegExp(`port ${busy.port} is already in use by process ${process.pid} .*set PORT`),
      );
      // Nothing was started or printed "once" for a server that never ran.
      expect(result.output).not.toMatch(/shown once/);
    } finally {
      await busy.close();
    }
  });
});

describe('the embedded database of a data folder has one owner', () => {
  it.each<[Service, string, RegExp]>([
    ['shop', 'api-key:list', /development\tcreated .*\tactive/],
    ['handler-directory', 'admin:list', /^admin\tadmin\tactive/m],
  ])(
    '%s: a second server names the owner; %s uses the running server’s database',
    async (service, command, listed) => {
      const vars = { DATA_DIR: dataDir(`${service}-owned`), SEED_DEMO: 'false' };
      const first = await serve(service, vars);

      const second = await run(service, 'server', { ...vars, PORT: String(await freePort()) });
      expectOneClearFailure(
        second,
        new RegExp(
          `in use by process ${first.proc.pid} \\(node .*server\\.js\\).*stop that process`,
        ),
      );

      const cli = await run(service, 'cli', vars, [command]);
      expect({ code: cli.code, listed: listed.test(cli.output) }).toEqual({
        code: 0,
        listed: true,
      });
      expect(await first.proc.stop('SIGTERM')).toBe(0);
    },
  );

  it('shop: a PostgreSQL left running by `kill -9` is taken over, and stopped with the shop', async () => {
    const vars = { DATA_DIR: dataDir('shop-killed'), SEED_DEMO: 'false' };
    const killed = await serve('shop', vars);
    const pidFile = path.join(vars.DATA_DIR, 'postgres', 'cluster', 'postmaster.pid');
    const postgresPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    await killed.proc.stop('SIGKILL');
    expect(isAlive(postgresPid)).toBe(true); // left behind, as after a crash

    const next = await serve('shop', vars);
    expect(next.proc.output()).toMatch(
      new RegExp(
        `reusing the embedded PostgreSQL left running by an earlier process \\(process ${postgresPid} `,
      ),
    );
    const cli = await run('shop', 'cli', vars, ['api-key:list']);
    expect(cli.output).toMatch(/development\tcreated .*\tactive/); // the data survived
    expect(await next.proc.stop('SIGTERM')).toBe(0);
    expect(isAlive(postgresPid)).toBe(false);
  });

  it('shop: a data folder under a private (0700) folder fails in one line as root, works otherwise', async () => {
    const passwordFiles = () =>
      readdirSync(os.tmpdir()).filter((name) => name.startsWith('pg-password-'));
    const before = passwordFiles();
    const privateDir = mkdtempSync(path.join(workDir, 'private-')); // mkdtemp makes it 0700
    const vars = { DATA_DIR: path.join(privateDir, 'checkout', '.data'), SEED_DEMO: 'false' };
    if (process.getuid?.() === 0) {
      const result = await run('shop', 'server', { ...vars, PORT: String(await freePort()) });
      expectOneClearFailure(
        result,
        new RegExp(`system user "postgres".*cannot enter ${privateDir} \\(mode 0700\\)`),
      );
    } else {
      const { proc } = await serve('shop', vars);
      expect(await proc.stop('SIGTERM')).toBe(0);
    }
    // No password file left in the shared temporary folder, wherever the start got to.
    expect(passwordFiles().filter((name) => !before.includes(name))).toEqual([]);
  });
});
