import type { AccountRecord } from '../../db/account-model.js';
import type { DirectoryDb } from '../../db/connection.js';
import type { AccountRole } from './rules.js';

/** Inserts an account; a taken username fails with the driver's duplicate-key error (11000). */
export async function insertAccount(
  db: DirectoryDb,
  account: { username: string; passwordHash: string; role: AccountRole },
): Promise<AccountRecord> {
  const created = await db.admins.create(account);
  return created.toObject<AccountRecord>();
}

/** Every account, by username. */
export const findAllAccounts = (db: DirectoryDb) =>
  db.admins.find({}).sort({ username: 1 }).lean<AccountRecord[]>();

export const countAllAccounts = (db: DirectoryDb) => db.admins.countDocuments({});

/** The account with this (normalised) username, or null. */
export const findAccountRecordByUsername = (db: DirectoryDb, username: string) =>
  db.admins.findOne({ username }).lean<AccountRecord>();

/** The account with this id (24 hexadecimal characters), or null. */
export const findAccountRecordById = (db: DirectoryDb, id: string) =>
  db.admins.findById(id).lean<AccountRecord>();

export async function markDisabled(
  db: DirectoryDb,
  record: AccountRecord,
  at: Date,
): Promise<void> {
  await db.admins.updateOne({ _id: record._id }, { $set: { disabledAt: at } });
}
