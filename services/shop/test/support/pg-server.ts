// Starts one real PostgreSQL for the whole run (embedded, or TEST_PG_SERVER_URL when a server is
// provided, as in the GitHub pipeline) and migrates a template database that every test file
// clones, so files stay isolated and can run in parallel.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@dogshop/child-processes';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { PACKAGE_ROOT } from '../../src/config.js';
import { TEMPLATE_DATABASE } from './database.js';

export async function setup(): Promise<void> {
  let serverUrl = process.env.TEST_PG_SERVER_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shop-test-pg-'));
    const server = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
    (globalThis as { __shopTestPg?: typeof server }).__shopTestPg = server;
    serverUrl = server.serverUrl;
    process.env.TEST_PG_SERVER_URL = serverUrl;
  }
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  // The real `migrate` command, in its own process (the WASM engine leaves a timer behind).
  execFileSync(
    process.execPath,
    [
      '--experimental-wasm-modules',
      '--disable-warning=ExperimentalWarning',
      '--conditions=@dogshop/source',
      '--import',
      'tsx',
      'src/cli/index.ts',
      'migrate',
    ],
    {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: `${serverUrl}/${TEMPLATE_DATABASE}`,
        JWT_SECRET: 'x'.repeat(32),
      },
    },
  );
}

export async function teardown(): Promise<void> {
  await (globalThis as { __shopTestPg?: { stop(): Promise<void> } }).__shopTestPg?.stop();
}
