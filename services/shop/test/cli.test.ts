// The operator commands against their own test database: in this process (runCli, as the entry
// point runs it), and through the built entry point as a real child process for its exit codes
// and streams (a process costs about two seconds of CPU, its loading mostly).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { PACKAGE_ROOT } from '../src/config.js';
import { demoCatalogue } from '../src/modules/catalogue-import/demo-catalogue.js';
import { testConfig } from './support/app.js';
import { runCliInProcess, runCliProcess } from './support/cli.js';
import { createTestDatabase } from './support/database.js';

const CHILD_TIMEOUT = 60_000;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  // The app the keys are for, on the same database as the commands.
  app = await buildApp(
    testConfig({
      databaseUrl: database.url,
      databasePoolMax: 2,
      // Every request looks its key up, so a revocation shows at once (auth.test.ts covers the
      // cache's delay).
      apiKeyCacheMs: 0,
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const cli = (...args: string[]) => runCliInProcess(database.url, args);
/** A file of test/fixtures, by its whole path: the commands run in this process, wherever it started. */
const fixture = (name: string) => path.join(PACKAGE_ROOT, 'test', 'fixtures', name);

const listProducts = (key: string) =>
  app.inject({ method: 'GET', url: '/products', headers: { 'x-api-key': key } });

const counts = async () => ({
  categories: await app.db.category.count(),
  products: await app.db.product.count(),
});

describe('API key commands', () => {
  it(
    'api-key:create prints a working key, api-key:list shows it active, api-key:revoke makes it 401',
    async () => {
      const created = await cli('api-key:create', 'demo');
      expect(created).toMatchObject({ code: 0 });
      const id = Number(/#(\d+) "demo"/.exec(created.stdout)?.[1]);
      const key = created.stdout.trim().split('\n').at(-1) ?? '';
      // A secret key with every scope by default, as every key made before key kinds.
      expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      expect(created.stdout).toContain('secret API key');
      expect(created.stdout).toContain('keys:manage');
      expect((await listProducts(key)).statusCode).toBe(200);

      const listed = await cli('api-key:list');
      expect(listed.code).toBe(0);
      const line = listed.stdout.split('\n').find((l) => l.startsWith(`#${id}\t`));
      expect(line).toMatch(/^#\d+\tsecret\t.*\tdemo\t.*\tactive$/);
      // The listing shows a prefix only, never the key itself.
      expect(listed.stdout).not.toContain(key);

      const revoked = await cli('api-key:revoke', String(id));
      expect(revoked).toMatchObject({ code: 0, stdout: `revoked API key #${id}\n` });
      const res = await listProducts(key);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, status_code: 401 });
    },
    CHILD_TIMEOUT,
  );
});

describe('key kinds and staff commands', () => {
  it(
    'api-key:create --publishable opens the storefront only, --scopes a secret key with those; staff:create gives a working one-time token',
    async () => {
      const publishable = await cli('api-key:create', 'storefront', '--publishable');
      expect(publishable.code).toBe(0);
      const pk = publishable.stdout.trim().split('\n').at(-1) ?? '';
      expect(pk).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
      expect((await listProducts(pk)).statusCode).toBe(200);
      const stats = (key: string) =>
        app.inject({ method: 'GET', url: '/stats', headers: { 'x-api-key': key } });
      expect((await stats(pk)).statusCode).toBe(403);

      const scoped = await cli('api-key:create', 'reports', '--scopes', 'stats:read');
      expect(scoped.code).toBe(0);
      const sk = scoped.stdout.trim().split('\n').at(-1) ?? '';
      expect((await stats(sk)).statusCode).toBe(200);
      const events = await app.inject({
        method: 'GET',
        url: '/events',
        headers: { 'x-api-key': sk },
      });
      expect(events.statusCode).toBe(403);

      const wrong = await cli('api-key:create', 'x', '--scopes', 'orders:everything');
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('unknown scope orders:everything');

      const staff = await cli('staff:create', 'Clerk@Example.com', 'Mia Clerk', '--role', 'viewer');
      expect(staff.code).toBe(0);
      expect(staff.stdout).toContain('created viewer account');
      const token = staff.stdout.match(/shown once\):\n(\S+)/)?.[1];
      const set = await app.inject({
        method: 'POST',
        url: '/admin/auth/set-password',
        payload: { token, password: 'a long staff passphrase' },
      });
      expect(set.statusCode).toBe(200);
      const login = await app.inject({
        method: 'POST',
        url: '/admin/auth/login',
        payload: { email: 'clerk@example.com', password: 'a long staff passphrase' },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user).toMatchObject({ name: 'Mia Clerk', role: 'viewer' });

      const again = await cli('staff:create', 'clerk@example.com', 'Someone');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already exists');
    },
    CHILD_TIMEOUT * 2,
  );
});

describe('catalogue commands', () => {
  it(
    'catalogue:import refuses a file with bad entries: exit 1, every bad entry printed, nothing written',
    async () => {
      const before = await counts();
      const result = await cli('catalogue:import', fixture('bad-catalogue.json'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/bad-catalogue\.json: 9 problems, nothing imported/);
      for (const entry of [
        'categories[1]:',
        'categories[3] "Whistles":',
        'categories[4] "Optics":',
        'products[1] "Negative lead":',
        'products[2] "Fraction lead":',
        'products[3] "Lost lead":',
        'products[4] "Wordy lead":',
        'products[5] "Coloured lead":',
        'products[7] "Leather lead":',
      ]) {
        expect(result.stderr).toContain(entry);
      }
      expect(await counts()).toEqual(before);
    },
    CHILD_TIMEOUT,
  );

  it(
    'catalogue:import imports a good file (exit 0), and seed loads the demo catalogue',
    async () => {
      const imported = await cli('catalogue:import', fixture('catalogue.json'));
      expect(imported).toMatchObject({ code: 0, stdout: 'imported 5 categories, 6 products\n' });
      const lead = await app.db.product.findFirstOrThrow({
        where: { name: 'Tracking lead 10 m' },
        select: {
          price: true,
          category: { select: { name: true, parent: { select: { name: true } } } },
        },
      });
      expect([lead.price.toFixed(2), lead.category.name, lead.category.parent?.name]).toEqual([
        '39.90',
        'Tracking leads',
        'Leads',
      ]);

      const seeded = await cli('seed');
      expect(seeded.code).toBe(0);
      for (const product of demoCatalogue().products) {
        const found = await app.db.product.count({
          where: { name: product.name, category: { name: product.category } },
        });
        expect([product.name, found]).toEqual([product.name, 1]);
      }
    },
    CHILD_TIMEOUT,
  );
});

it('refuses a wrong configuration with the variable named, before touching the database', async () => {
  await expect(runCliInProcess(database.url, ['api-key:list'], { PORT: 'eighty' })).rejects.toThrow(
    /PORT/,
  );
});

describe('the entry point, as its own process', () => {
  it(
    'prints a command’s answer on stdout and exits 0, e.g. api-key:create’s key',
    async () => {
      const created = await runCliProcess(database.url, ['api-key:create', 'from a shell']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      const key = created.stdout.trim().split('\n').at(-1) ?? '';
      expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      expect((await listProducts(key)).statusCode).toBe(200);
    },
    CHILD_TIMEOUT,
  );

  it(
    'exits 2 with the usage on stderr for an unknown command',
    async () => {
      const result = await runCliProcess(database.url, ['catalogue:export']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('unknown command: catalogue:export');
      expect(result.stderr).toContain('usage: shop <command>');
      expect(result.stdout).toBe('');
    },
    CHILD_TIMEOUT,
  );
});
