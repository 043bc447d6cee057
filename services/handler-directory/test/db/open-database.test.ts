import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { databaseNameOf, openDirectoryDb } from '../../src/db/connection.js';
import {
  LOCK_FILE,
  openDatabase,
  STAND_IN_FILE,
  withoutCredentials,
} from '../../src/db/open-database.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hd-target-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const quiet = () => {};

describe('which MongoDB the suite runs on', () => {
  it('is MONGODB_URI when set, else an embedded one (the stand-in when no mongod is installed)', () => {
    const kind = process.env.TEST_MONGODB_KIND;
    if (process.env.MONGODB_URI) expect(kind).toBe('configured');
    else expect(['mongodb-memory-server', 'stand-in']).toContain(kind);
  });
});

describe('openDatabase', () => {
  it('uses MONGODB_URI as given and starts nothing', async () => {
    const target = await openDatabase({
      uri: 'mongodb://user:secret@db.example:27017/hd',
      log: quiet,
    });
    expect(target).toMatchObject({
      url: 'mongodb://user:secret@db.example:27017/hd',
      embedded: false,
    });
    expect(target.description).not.toContain('secret');
    await target.close();
  });

  it('keeps embedded data in the data folder across restarts', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ dataDir, log: quiet });
    const db = await openDirectoryDb(first.url);
    await db.handlers.create({ name: 'Bleibt Bestehen', phone: '1' });
    await db.close();
    await first.close();
    if (first.description.includes('stand-in'))
      expect(existsSync(path.join(dataDir, STAND_IN_FILE))).toBe(true);

    const second = await openDatabase({ dataDir, log: quiet });
    const again = await openDirectoryDb(second.url);
    expect((await again.handlers.find({}).lean()).map((h) => h.name)).toEqual(['Bleibt Bestehen']);
    await again.close();
    await second.close();
  });

  it('lets one process own a data folder: a second server refuses, a command joins it', async () => {
    const dataDir = tempDir();
    const owner = await openDatabase({ dataDir, log: quiet });
    try {
      const lock = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
      expect(lock).toMatchObject({ pid: process.pid, uri: owner.url });

      await expect(openDatabase({ dataDir, log: quiet })).rejects.toThrow(/in use by process/);
      const joined = await openDatabase({ dataDir, joinRunning: true, log: quiet });
      expect(joined.url).toBe(owner.url);
      await joined.close();
      // Closing the joined target leaves the owner's database running.
      const db = await openDirectoryDb(owner.url);
      await db.ping();
      await db.close();
    } finally {
      await owner.close();
    }
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('takes over the lock of a process that died without cleaning up', async () => {
    const dataDir = tempDir();
    // A pid far above any in use here.
    writeFileSync(
      path.join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: 2 ** 22 - 3, uri: 'mongodb://127.0.0.1:1' }),
    );
    const target = await openDatabase({ dataDir, log: quiet });
    expect(target.url).not.toBe('mongodb://127.0.0.1:1');
    await target.close();
  });
});

describe('helpers', () => {
  it('reads the database name from the URI, with a default', () => {
    expect(databaseNameOf('mongodb://h:1/dogs?replicaSet=rs0')).toBe('dogs');
    expect(databaseNameOf('mongodb+srv://u:p@cluster.example/')).toBe('handler_directory');
    expect(databaseNameOf('mongodb://a:1,b:2')).toBe('handler_directory');
  });

  it('hides credentials in logged URIs', () => {
    expect(withoutCredentials('mongodb://u:p@h:1/db')).toBe('mongodb://***@h:1/db');
    expect(withoutCredentials('mongodb://h:1/db')).toBe('mongodb://h:1/db');
  });
});
