// One process at a time owns the embedded database of a data folder (two owners would overwrite
// each other's data, or fight over one cluster). The owner records its pid and the database
// address in a lock file; commands run while the server is up connect to that address instead of
// starting a second copy, and a second server refuses to start, naming the owner.
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  /** Absent while the owner is still starting its database. */
  uri?: string;
  kind?: string;
}

export type LockResult =
  | { acquired: true; publish(info: Omit<LockInfo, 'pid'>): void; release(): void }
  | { acquired: false; owner: LockInfo };

/** Takes `<dataDir>/<lockFile>` for this process, or names the live process that holds it. */
export function acquireDataDirLock(dataDir: string, lockFile: string): LockResult {
  const file = path.join(dataDir, lockFile);
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then hard-linked into place: creating the lock and its content is one atomic
  // step, so a reader never sees an empty lock and mistakes it for a stale one.
  const pending = `${file}.${process.pid}`;
  writeFileSync(pending, JSON.stringify({ pid: process.pid }), { mode: 0o600 });
  try {
    return tryAcquire(file, pending);
  } finally {
    rmSync(pending, { force: true });
  }
}

function tryAcquire(file: string, pending: string): LockResult {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      linkSync(pending, file);
      return {
        acquired: true,
        publish: (info) => {
          writeFileSync(pending, JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 });
          renameSync(pending, file);
        },
        release: () => {
          if (readLock(file)?.pid === process.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readLock(file);
      if (owner && isAlive(owner.pid)) return { acquired: false, owner };
      // The owner died without cleaning up: the lock is stale.
      unlinkSync(file);
    }
  }
  throw new Error(`could not lock ${file}`);
}

function readLock(file: string): LockInfo | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    return typeof parsed.pid === 'number' ? (parsed as LockInfo) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
