// The benchmark's peer: Platformatic DB, a Fastify-based REST layer generated from the tables, at
// a pinned version. It is installed on first use into bench/.peer/platformatic-db (git-ignored) by
// `npm ci` from the package.json + package-lock.json committed in bench/peer/platformatic-db, so
// its whole dependency tree is pinned and stays outside the workspace lockfile. It runs as its own
// process with its own CLI (`plt-db start -c platformatic.json`) against the shop's database.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  cleanEnv,
  freePort,
  runToCompletion,
  startProcess,
  waitForOk,
} from '@dogshop/child-processes';
import { BENCH_ROOT } from '../options.js';
import { SHOP_POOL_MAX, type RunningService } from '../infra/services.js';
import { installedVersion } from '../versions.js';

export const PLATFORMATIC_DB_VERSION = '2.61.0';

/** What is committed: the pinned package.json and its lockfile. */
export const PEER_SOURCE = path.join(BENCH_ROOT, 'peer', 'platformatic-db');
/** Where it is installed (BENCH_PEER_DIR overrides; git-ignored). */
export const peerDir = () =>
  path.resolve(process.env.BENCH_PEER_DIR || path.join(BENCH_ROOT, '.peer', 'platformatic-db'));

const STAMP = '.installed-lock.sha256';
const LOCK_FILES = ['package.json', 'package-lock.json'];

const lockHash = () => {
  const hash = createHash('sha256');
  for (const file of LOCK_FILES) hash.update(readFileSync(path.join(PEER_SOURCE, file)));
  return hash.digest('hex');
};

/**
 * Installs the peer unless the installed copy comes from the committed lockfile. `npm ci` with
 * `--ignore-scripts`: on PostgreSQL it needs no install script (the three packages that have one
 * build SQLite, a CPU-metrics addon and print a notice; none is loaded here).
 */
export async function ensurePeerInstalled(
  log: (line: string) => void,
): Promise<{ dir: string; version: string; installSeconds: number | null }> {
  const dir = peerDir();
  const wanted = lockHash();
  const stampFile = path.join(dir, STAMP);
  const current = () => installedVersion(dir, '@platformatic/db');
  if (
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8').trim() === wanted &&
    current() === PLATFORMATIC_DB_VERSION
  ) {
    return { dir, version: current(), installSeconds: null };
  }
  log(`installing the peer @platformatic/db@${PLATFORMATIC_DB_VERSION} into ${dir} (npm ci)`);
  const started = Date.now();
  mkdirSync(dir, { recursive: true });
  for (const file of LOCK_FILES) copyFileSync(path.join(PEER_SOURCE, file), path.join(dir, file));
  await runToCompletion({
    command: 'npm',
    args: ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    cwd: dir,
    // npm keeps its own settings (registry, proxy, cache) from HOME's .npmrc.
    env: cleanEnv({}),
    timeoutMs: 15 * 60_000,
  });
  const version = current();
  if (version !== PLATFORMATIC_DB_VERSION) {
    throw new Error(
      `peer install: found @platformatic/db ${version}, wanted ${PLATFORMATIC_DB_VERSION}`,
    );
  }
  writeFileSync(stampFile, `${wanted}\n`);
  const installSeconds = (Date.now() - started) / 1000;
  log(`  installed in ${installSeconds.toFixed(1)} s`);
  return { dir, version, installSeconds };
}

/** The peer's configuration: REST (OpenAPI) only, no GraphQL, no migrations, no events. */
export function peerConfig(port: number): Record<string, unknown> {
  return {
    server: { hostname: '127.0.0.1', port, logger: { level: 'warn' } },
    db: {
      // Read from the environment at start (Platformatic's {PLT_…} placeholders), so that the
      // database password is never written to the file.
      connectionString: '{PLT_BENCH_DATABASE_URL}',
      // The same pool as the shop's (DATABASE_POOL_MAX), the default of both.
      poolSize: SHOP_POOL_MAX,
      graphql: false,
      openapi: true,
      events: false,
      schemalock: false,
    },
    types: { autogenerate: false },
    watch: false,
  };
}

/** Starts the peer on loopback against `databaseUrl` (no migrations: the shop owns the schema). */
export async function startPeer(databaseUrl: string): Promise<RunningService> {
  const dir = peerDir();
  const port = await freePort();
  const configFile = path.join(dir, 'platformatic.json');
  writeFileSync(configFile, `${JSON.stringify(peerConfig(port), null, 2)}\n`);
  const proc = startProcess({
    name: 'platformatic-db',
    command: process.execPath,
    args: [
      path.join(dir, 'node_modules', '@platformatic', 'db', 'db.mjs'),
      'start',
      '-c',
      configFile,
    ],
    cwd: dir,
    env: cleanEnv({ NODE_ENV: 'production', PLT_BENCH_DATABASE_URL: databaseUrl }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/products?limit=1`, proc, 60_000);
  return {
    name: 'platformatic-db',
    url,
    process: proc,
    stop: async () => void (await proc.stop()),
  };
}
