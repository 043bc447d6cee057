import { randomBytes } from 'node:crypto';
import {
  hashPassword,
  verifyAgainstDummy,
  verifyPassword,
  type LoginLimiter,
} from '@dogshop/service-kit';
import type { DirectoryDb } from '../../db/connection.js';
import { toAccount, type Account } from './mapper.js';
import {
  countAllAccounts,
  findAccountRecordById,
  findAccountRecordByUsername,
  findAllAccounts,
  insertAccount,
  markDisabled,
} from './repository.js';
import { newAccountProblems, normalizeUsername, type AccountRole } from './rules.js';

export type { Account };

/** A new account breaks the rules or its username is taken (the CLI shows the message). */
export class AccountError extends Error {
  override name = 'AccountError';
}

/** Creates an account; refuses a taken username and a username or password that breaks the rules. */
export async function createAccount(
  db: DirectoryDb,
  input: { username: string; password: string; role?: AccountRole },
): Promise<Account> {
  const username = normalizeUsername(input.username);
  const problems = newAccountProblems(username, input.password);
  if (problems.length > 0) throw new AccountError(problems.join('; '));
  try {
    return toAccount(
      await insertAccount(db, {
        username,
        passwordHash: await hashPassword(input.password),
        role: input.role ?? 'admin',
      }),
    );
  } catch (error) {
    if ((error as { code?: number }).code === 11000) {
      throw new AccountError(`an account named "${username}" already exists`);
    }
    throw error;
  }
}

export async function listAccounts(db: DirectoryDb): Promise<Account[]> {
  return (await findAllAccounts(db)).map(toAccount);
}

export const countAccounts = (db: DirectoryDb) => countAllAccounts(db);

/** False when no such account exists; disabling twice keeps the first time. */
export async function disableAccount(db: DirectoryDb, username: string): Promise<boolean> {
  const record = await findAccountRecordByUsername(db, normalizeUsername(username));
  if (!record) return false;
  if (!record.disabledAt) await markDisabled(db, record, new Date());
  return true;
}

/**
 * The account for a username and password, or null. Unknown users cost the same hashing work as
 * a wrong password, and disabled accounts fail the same way, so a failure tells nothing more.
 */
export async function authenticate(
  db: DirectoryDb,
  username: string,
  password: string,
): Promise<Account | null> {
  const record = await findAccountRecordByUsername(db, normalizeUsername(username));
  if (!record) return verifyAgainstDummy(password).then(() => null);
  const valid = await verifyPassword(record.passwordHash, password);
  return valid && !record.disabledAt ? toAccount(record) : null;
}

/**
 * Login: the account for these credentials, counted by the limiter per client address and
 * username. Once a limit is spent the password is not checked (429); a failure is one 401 for
 * unknown users, wrong passwords and disabled accounts alike.
 */
export async function login(
  db: DirectoryDb,
  limiter: LoginLimiter,
  ip: string,
  credentials: { username: string; password: string },
): Promise<Account> {
  const { username, password } = credentials;
  return limiter.login(ip, normalizeUsername(username), () => authenticate(db, username, password));
}

/** The account behind a token, if it still exists and is enabled. */
export async function findActiveAccount(db: DirectoryDb, id: string): Promise<Account | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const record = await findAccountRecordById(db, id);
  return record && !record.disabledAt ? toAccount(record) : null;
}

export async function findAccountByUsername(
  db: DirectoryDb,
  username: string,
): Promise<Account | null> {
  const record = await findAccountRecordByUsername(db, normalizeUsername(username));
  return record ? toAccount(record) : null;
}

/** A password for a generated development account: 24 random characters. */
export const randomPassword = () => randomBytes(18).toString('base64url');
