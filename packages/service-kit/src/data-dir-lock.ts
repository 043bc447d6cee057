// One process at a time owns the embedded database of a data folder (two owners would overwrite
// each other's data, or fight over one cluster). proper-lockfile holds the lock (a directory
// `<lockFile>.lock`, created atomically, its mtime refreshed while the owner lives, taken over once
// it is stale); beside it, `<lockFile>` records the owner's pid and database address, which the
// library does not keep: commands run while the server is up connect to that address instead of
// starting a second copy, and a second server refuses to start, naming the owner.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lockSync } from 'proper-lockfile';

export interface LockInfo {
  pid: number;
  /** Absent while the owner is still starting its database. */
  uri?: string;
  kind?: string;
}

export type LockResult =
  | { acquired: true; publish(info: Omit<LockInfo, 'pid'>): void; release(): void }
  | { acquired: false; owner: LockInfo };

/** The lock files this process holds: a pid equal to ours in any other is a previous life's. */
const held = new Set<string>();

/** Takes `<dataDir>/<lockFile>` for this process, or names the live process that holds it. */
export function acquireDataDirLock(dataDir: string, lockFile: string): LockResult {
  const file = path.resolve(dataDir, lockFile);
  const lockDir = `${file}.lock`; // proper-lockfile's
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const release = tryLock(file, lockDir);
    if (release) {
      held.add(file);
      const write = (info: LockInfo) => {
        // Written aside, then renamed into place: a reader never sees a half-written file.
        writeFileSync(`${file}.${process.pid}`, JSON.stringify(info), { mode: 0o600 });
        renameSync(`${file}.${process.pid}`, file);
      };
      write({ pid: process.pid });
      return {
        acquired: true,
        publish: (info) => write({ pid: process.pid, ...info }),
        release: () => {
          if (!held.delete(file)) return;
          if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
          try {
            release();
          } catch {
            // ERELEASED: another process took a lock of ours that had gone stale (see tryLock).
          }
        },
      };
    }
    const owner = ownerOf(file);
    if (owner && isAlive(owner.pid, file)) return { acquired: false, owner };
    // The owner died (e.g. `kill -9`) within the library's stale period: take over now.
    rmSync(lockDir, { recursive: true, force: true });
  }
  throw new Error(`could not lock ${file}`);
}

/** The lock's release, or undefined when another process holds it. */
function tryLock(file: string, lockfilePath: string): (() => void) | undefined {
  try {
    return lockSync(file, {
      lockfilePath,
      realpath: false, // the owner's record need not exist yet
      // Another process takes the lock over only once ours went stale (this process suspended
      // longer than that); nothing here can repair that, so it is not made a crash.
      onCompromised: () => {},
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

/** The owner's record; it writes it right after taking the lock, so a missing one is waited for. */
function ownerOf(file: string): LockInfo | undefined {
  for (let waited = 0; waited < 200; waited += 20) {
    const owner = readLock(file);
    if (owner) return owner;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return readLock(file);
}

function readLock(file: string): LockInfo | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    return typeof parsed.pid === 'number' ? (parsed as LockInfo) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number, file: string): boolean {
  if (pid === process.pid) return held.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
