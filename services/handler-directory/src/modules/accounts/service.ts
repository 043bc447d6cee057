import { randomBytes } from 'node:crypto';
import type { CreateAccountBody, UpdateAccountBody } from '@dogshop/contracts/handler-directory';
import {
  badRequest,
  conflict,
  hashOneTimeToken,
  hashPassword,
  newOneTimeToken,
  notFound,
  verifyAgainstDummy,
  verifyPassword,
  type LoginLimiter,
  type OneTimeToken,
} from '@dogshop/service-kit';
import type { ClientSession } from 'mongoose';
import type { DirectoryDb } from '../../db/connection.js';
import { MESSAGES } from '../../messages.js';
import { findHandlerById } from '../handlers/repository.js';
import { toAccount, type Account } from './mapper.js';
import {
  consumeSetPasswordToken,
  countAllAccounts,
  countEnabledAdmins,
  findAccountRecordById,
  findAccountRecordByUsername,
  findAllAccounts,
  guardEnabledAdmins,
  insertAccount,
  markDisabled,
  replacePassword,
  updateAccountRecord,
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
        handlerId: null,
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
  // No account, or none with a password yet: the same hashing work as a wrong password.
  if (!record?.passwordHash) return verifyAgainstDummy(password).then(() => null);
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

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** The account behind a token, if it still exists and is enabled. */
export async function findActiveAccount(db: DirectoryDb, id: string): Promise<Account | null> {
  if (!OBJECT_ID.test(id)) return null;
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

// ---------------------------------------------------------------------------------------------
// Management by administrators (the API): answers are HTTP errors with German messages.

/**
 * The handler binding of an account with this role: a `handler` account needs the id of an
 * existing handler, the other roles take none (null).
 */
async function handlerBinding(
  db: DirectoryDb,
  role: AccountRole,
  handlerId: string | null | undefined,
  session?: ClientSession,
): Promise<string | null> {
  if (role !== 'handler') {
    if (handlerId) throw badRequest(MESSAGES.handlerIdOnlyForHandlers);
    return null;
  }
  if (!handlerId) throw badRequest(MESSAGES.handlerAccountNeedsHandler);
  const id = handlerId.toLowerCase();
  if (!(await findHandlerById(db, id, session))) throw badRequest(MESSAGES.boundHandlerNotFound);
  return id;
}

async function accountById(db: DirectoryDb, id: string, session?: ClientSession) {
  const record = OBJECT_ID.test(id)
    ? await findAccountRecordById(db, id.toLowerCase(), session)
    : null;
  if (!record) throw notFound(MESSAGES.accountNotFound);
  return record;
}

export async function getAccount(db: DirectoryDb, id: string): Promise<Account> {
  return toAccount(await accountById(db, id));
}

/**
 * Creates an account from the API. With a password it can sign in at once; without one it gets
 * a set-password token for its owner.
 */
export async function addAccount(
  db: DirectoryDb,
  body: CreateAccountBody,
  now = new Date(),
): Promise<{ account: Account; setPassword?: OneTimeToken }> {
  const handlerId = await handlerBinding(db, body.role, body.handlerId);
  const token = body.password === undefined ? newOneTimeToken(now) : undefined;
  try {
    const record = await insertAccount(db, {
      username: normalizeUsername(body.username),
      role: body.role,
      handlerId,
      ...(body.password === undefined
        ? { setPassword: token!.stored }
        : { passwordHash: await hashPassword(body.password) }),
    });
    return { account: toAccount(record), ...(token ? { setPassword: token.shown } : {}) };
  } catch (error) {
    if ((error as { code?: number }).code === 11000) throw conflict(MESSAGES.usernameTaken);
    throw error;
  }
}

/**
 * Changes an account's role, handler binding or disabled state, in one transaction: read, check,
 * write. Only the fields the body gives are written, so a concurrent change of another field
 * stays. The last enabled admin stays: a change that takes an enabled admin away writes a guard
 * document and counts the enabled admins left (409 when none), so two admins demoting each other
 * at once conflict, and the one MongoDB runs again sees the other's change and fails.
 */
export async function changeAccount(
  db: DirectoryDb,
  id: string,
  body: UpdateAccountBody,
  now = new Date(),
): Promise<Account> {
  return db.connection.transaction(async (session) => {
    const before = await accountById(db, id, session);
    const role = body.role ?? before.role;
    const handlerId =
      body.role !== undefined || body.handlerId !== undefined
        ? await handlerBinding(
            db,
            role,
            body.handlerId !== undefined
              ? body.handlerId
              : role === 'handler'
                ? before.handlerId?.toHexString()
                : null,
            session,
          )
        : undefined;
    const disabledAt =
      body.disabled === undefined
        ? before.disabledAt
        : body.disabled
          ? (before.disabledAt ?? now)
          : null;
    const set = {
      ...(body.role !== undefined ? { role } : {}),
      ...(handlerId !== undefined ? { handlerId } : {}),
      ...(body.disabled !== undefined ? { disabledAt } : {}),
    };
    const wasEnabledAdmin = before.role === 'admin' && !before.disabledAt;
    const isEnabledAdmin = role === 'admin' && !disabledAt;
    if (wasEnabledAdmin && !isEnabledAdmin) {
      await guardEnabledAdmins(db, session);
      const others = await countEnabledAdmins(db, session);
      // The count still includes this account, which the write below takes away.
      if (others <= 1) throw conflict(MESSAGES.lastAdmin);
    }
    const after = await updateAccountRecord(db, before._id.toHexString(), set, session);
    if (!after) throw notFound(MESSAGES.accountNotFound);
    return toAccount(after);
  });
}

/**
 * A new set-password token for the account; earlier ones stop working. Its password and tokens
 * keep working until the new password is set (setPasswordWithToken ends the tokens).
 */
export async function resetPassword(
  db: DirectoryDb,
  id: string,
  now = new Date(),
): Promise<OneTimeToken> {
  const record = await accountById(db, id);
  const token = newOneTimeToken(now);
  await updateAccountRecord(db, record._id.toHexString(), { setPassword: token.stored });
  return token.shown;
}

/** Sets the password of the account whose one-time token this is (400 when none, used or expired). */
export async function setPasswordWithToken(
  db: DirectoryDb,
  token: string,
  password: string,
  now = new Date(),
): Promise<Account> {
  const record = await consumeSetPasswordToken(
    db,
    hashOneTimeToken(token),
    now,
    await hashPassword(password),
  );
  if (!record) throw badRequest(MESSAGES.setPasswordTokenInvalid);
  return toAccount(record);
}

/**
 * Changes the signed-in account's password; the current one is checked as a login is (the
 * limiter counts a wrong one, 401). Every token of the account ends, this session's too: the
 * account as changed (its new token version), to sign this session's next token with.
 */
export async function changePassword(
  db: DirectoryDb,
  limiter: LoginLimiter,
  ip: string,
  account: Account,
  passwords: { currentPassword: string; newPassword: string },
): Promise<Account> {
  await limiter.login(ip, account.username, () =>
    authenticate(db, account.username, passwords.currentPassword),
  );
  const record = await replacePassword(db, account.id, await hashPassword(passwords.newPassword));
  // Deleted between the check and the update: its tokens have ended anyway.
  if (!record) throw notFound(MESSAGES.accountNotFound);
  return toAccount(record);
}
