import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { prepareFirstStart } from '../src/first-start.js';
import { listAccounts } from '../src/modules/accounts/service.js';
import { DEMO_HANDLERS } from '../src/modules/handlers/demo-directory.js';
import { testConfig } from './support/app.js';

let app: FastifyInstance;
let printed: string[];

beforeEach(async () => {
  app = await buildApp(testConfig());
  await app.ready();
  printed = [];
  jest.spyOn(console, 'log').mockImplementation((line: unknown) => {
    printed.push(String(line));
  });
});
afterEach(async () => {
  jest.restoreAllMocks();
  await app.db.connection.dropDatabase();
  await app.close();
});

const base = {
  seedDemo: true,
  adminUsername: 'admin',
  adminPassword: undefined,
  env: 'development' as const,
};
const login = (username: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('prepareFirstStart', () => {
  it('loads the demo directory once into an empty database, with umlauts, positions and one unavailable', async () => {
    await prepareFirstStart(app, base);
    await prepareFirstStart(app, base);
    const all = await app.db.handlers.find({}).lean();
    expect(all).toHaveLength(DEMO_HANDLERS.length);
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all.some((h) => /[äöüßÄÖÜ]/.test(h.name))).toBe(true);
    expect(all.filter((h) => h.gps).length).toBeGreaterThanOrEqual(4);
    expect(all.filter((h) => !h.available)).toHaveLength(1);
  });

  it('loads nothing with SEED_DEMO=false', async () => {
    await prepareFirstStart(app, { ...base, seedDemo: false });
    expect(await app.db.handlers.countDocuments({})).toBe(0);
  });

  it('creates the ADMIN_USERNAME account from ADMIN_PASSWORD once, never changing it afterwards', async () => {
    await prepareFirstStart(app, {
      ...base,
      adminUsername: 'chefin',
      adminPassword: 'first-password-123',
    });
    await prepareFirstStart(app, {
      ...base,
      adminUsername: 'chefin',
      adminPassword: 'other-password-456',
    });
    expect((await listAccounts(app.db)).map((a) => [a.username, a.role])).toEqual([
      ['chefin', 'admin'],
    ]);
    expect((await login('chefin', 'first-password-123')).statusCode).toBe(200);
    expect((await login('chefin', 'other-password-456')).statusCode).toBe(401);
    expect(printed).toEqual([]);
  });

  it('in development without any account, creates one with a random password printed once', async () => {
    await prepareFirstStart(app, base);
    await prepareFirstStart(app, base);
    expect(printed).toHaveLength(1);
    const password = /admin \/ (\S+)/.exec(printed[0]!)?.[1];
    expect(password).toBeDefined();
    expect((await login('admin', password!)).statusCode).toBe(200);
  });

  it('in production creates no account without ADMIN_PASSWORD', async () => {
    await prepareFirstStart(app, { ...base, env: 'production' });
    expect(await listAccounts(app.db)).toEqual([]);
    expect(printed).toEqual([]);
  });
});
