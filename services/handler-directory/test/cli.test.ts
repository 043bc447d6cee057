import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../src/cli/commands.js';
import { PACKAGE_ROOT } from '../src/config.js';
import { openDirectoryDb } from '../src/db/connection.js';
import { testMongoUri, uniqueDbName, withDatabase } from './support/database.js';

const uri = withDatabase(testMongoUri(), uniqueDbName('cli'));
const env = { NODE_ENV: 'test', MONGODB_URI: uri, JWT_SECRET: 'x'.repeat(32) };

/** The commands in this process, with their output captured. */
async function cli(args: string[], password = 'a-good-password-123') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readPassword: async () => password,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

afterAll(async () => {
  const db = await openDirectoryDb(uri);
  await db.connection.dropDatabase();
  await db.close();
});

describe('admin commands', () => {
  it('create accounts with a role, refusing duplicates (any case) and weak passwords', async () => {
    expect(await cli(['admin:create', 'Vera', '--role', 'viewer'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^created viewer "vera" \([0-9a-f]{24}\)$/),
    });
    expect(await cli(['admin:create', 'otto'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/created admin "otto"/),
    });
    expect(await cli(['admin:create', 'VERA'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/already exists/),
    });
    expect(await cli(['admin:create', 'kurt'], 'short')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/password: 12–128 characters/),
    });
    expect(await cli(['admin:create', 'a b'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/username/),
    });
    expect((await cli(['admin:create', 'x', '--role', 'owner'])).code).toBe(2);
    expect((await cli(['admin:create'])).code).toBe(2);
  });

  it('disable an account and list accounts with their state', async () => {
    await cli(['admin:create', 'weg.damit']);
    expect(await cli(['admin:disable', 'Weg.Damit'])).toMatchObject({ code: 0 });
    expect(await cli(['admin:disable', 'niemand'])).toMatchObject({
      code: 1,
      stderr: 'no account "niemand"',
    });
    const list = await cli(['admin:list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^weg\.damit\tadmin\tdisabled \d{4}-\d\d-\d\dT/m);
    expect(list.stdout).toMatch(/^vera\tviewer\tactive\t/m);
    expect(list.stdout).not.toMatch(/kurt/);
  });

  it('prints usage for unknown commands', async () => {
    expect(await cli(['admin:destroy'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/usage: handler-directory/),
    });
  });

  it('runs as a program, reading the password from stdin when it is piped', async () => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@dogshop/source',
        '--import',
        'tsx',
        'src/cli/index.ts',
        'admin:create',
        'piped',
      ],
      {
        cwd: PACKAGE_ROOT,
        env: { ...process.env, ...env, ADMIN_PASSWORD: '' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.end('piped-password-123\n');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/created admin "piped"/),
    });
  }, 30_000);
});
