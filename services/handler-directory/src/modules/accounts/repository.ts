import type { ClientSession, Types } from 'mongoose';
import type { AccountRecord } from '../../db/account-model.js';
import type { DirectoryDb } from '../../db/connection.js';
import type { AccountRole } from './rules.js';

/** What a new account stores. */
export interface NewAccountRecord {
  username: string;
  passwordHash?: string;
  role: AccountRole;
  handlerId: string | null;
  setPassword?: { tokenHash: string; expiresAt: Date };
}

/** Inserts an account; a taken username fails with the driver's duplicate-key error (11000). */
export async function insertAccount(
  db: DirectoryDb,
  account: NewAccountRecord,
): Promise<AccountRecord> {
  const created = await db.admins.create(account);
  return created.toObject<AccountRecord>();
}

/** Every account, by username. */
export const findAllAccounts = (db: DirectoryDb) =>
  db.admins.find({}).sort({ username: 1 }).lean<AccountRecord[]>();

export const countAllAccounts = (db: DirectoryDb) => db.admins.countDocuments({});

/** Enabled accounts of the `admin` role. */
export const countEnabledAdmins = (db: DirectoryDb, session?: ClientSession) =>
  db.admins.countDocuments({ role: 'admin', disabledAt: null }).session(session ?? null);

/**
 * Writes the one document every transaction that takes an enabled admin away writes
 * (collection `account_guards`), so that two such transactions conflict and MongoDB runs one
 * after the other: under snapshot isolation each would otherwise count the admin the other is
 * taking away, and both would commit (write skew).
 */
export async function guardEnabledAdmins(db: DirectoryDb, session: ClientSession): Promise<void> {
  await db.connection
    .collection<{ _id: string; changes: number }>('account_guards')
    .updateOne({ _id: 'enabled-admins' }, { $inc: { changes: 1 } }, { upsert: true, session });
}

/** The account with this (normalised) username, or null. */
export const findAccountRecordByUsername = (db: DirectoryDb, username: string) =>
  db.admins.findOne({ username }).lean<AccountRecord>();

/** The account with this id (24 hexadecimal characters), or null. */
export const findAccountRecordById = (db: DirectoryDb, id: string, session?: ClientSession) =>
  db.admins
    .findById(id)
    .session(session ?? null)
    .lean<AccountRecord>();

/** What an update of an account may set (an id as hex text or ObjectId). */
export type AccountChanges = Partial<
  Pick<AccountRecord, 'role' | 'disabledAt' | 'passwordHash' | 'setPassword'>
> & { handlerId?: string | Types.ObjectId | null };

/** Sets fields of an account; the changed record, or null when there is none. */
export const updateAccountRecord = (
  db: DirectoryDb,
  id: string,
  set: AccountChanges,
  session?: ClientSession,
) =>
  db.admins
    .findByIdAndUpdate(
      id,
      { $set: set },
      { returnDocument: 'after', runValidators: true, session: session ?? null },
    )
    .lean<AccountRecord>();

/**
 * Replaces an account's password and ends its tokens (raises its token version); the changed
 * record, or null when there is none.
 */
export const replacePassword = (db: DirectoryDb, id: string, passwordHash: string) =>
  db.admins
    .findByIdAndUpdate(
      id,
      { $set: { passwordHash }, $inc: { tokenVersion: 1 } },
      { returnDocument: 'after', runValidators: true },
    )
    .lean<AccountRecord>();

/**
 * Sets the password of the enabled account whose pending token has this hash and has not
 * expired, forgets the token and ends the account's tokens, in one update: a token works once, even when two requests
 * race. The account, or null. (Through the driver: the filter's operator on the token's end is
 * ours, and Mongoose's filter sanitising would neutralise it inside the nested path.)
 */
export const consumeSetPasswordToken = (
  db: DirectoryDb,
  tokenHash: string,
  now: Date,
  passwordHash: string,
) =>
  db.admins.collection.findOneAndUpdate(
    { 'setPassword.tokenHash': tokenHash, 'setPassword.expiresAt': { $gt: now }, disabledAt: null },
    {
      $set: { passwordHash, updatedAt: now },
      $unset: { setPassword: 1 },
      // Tokens signed before end, as after any password change.
      $inc: { tokenVersion: 1 },
    },
    { returnDocument: 'after' },
  ) as Promise<AccountRecord | null>;

export async function markDisabled(
  db: DirectoryDb,
  record: AccountRecord,
  at: Date,
): Promise<void> {
  await db.admins.updateOne({ _id: record._id }, { $set: { disabledAt: at } });
}
