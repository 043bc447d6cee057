import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Algorithm } from '@node-rs/argon2';
import { Piscina } from 'piscina';

// `Algorithm` is an ambient const enum, unusable as a value under isolatedModules; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id recommendation: 19 MiB of memory, 2 passes, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Hashing runs on threads of its own, one per core, at a lower CPU priority (by default nice +10
 * for these threads only). A login storm then uses what the event loop leaves over instead of
 * competing with it: `/health` and every other request keep their latency while the hashes queue.
 * (On libuv's shared pool, where argon2's async functions run, they compete on equal terms.) The
 * price: on a machine busy with other processes, logins get little CPU.
 */
let niceness = 10;
let pool: Piscina | undefined;

/**
 * Sets how much lower the password threads' priority is (0–19; `PASSWORD_THREAD_NICENESS`).
 * A change replaces the pool; hashes already queued finish on the old one.
 */
export function setPasswordThreadNiceness(value: number): void {
  if (value === niceness) return;
  niceness = value;
  void pool?.close();
  pool = undefined;
}

const threads = (): Piscina =>
  (pool ??= new Piscina({
    filename: new URL('./password-worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: os.availableParallelism(),
    idleTimeout: 30_000,
    niceIncrement: niceness,
  }));

export const hashPassword = (password: string): Promise<string> =>
  threads().run({ password, options: OPTIONS }, { name: 'hash' });

/** False for a wrong password and for a stored value that is not a valid argon2 hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return (await threads().run({ passwordHash, password }, { name: 'verify' })) as boolean;
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check when the account is unknown, so the response time of a
 * failed login does not tell whether the account exists. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
