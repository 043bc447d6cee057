import { randomBytes } from 'node:crypto';
import type { DirectoryDb } from '../db/connection.js';
import type { AdminRecord } from '../db/admin-model.js';
import { newAccountProblems, normalizeUsername, type AdminRole } from '../domain/admin-account.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '@dogshop/service-kit';

export interface AdminInfo {
  id: string;
  username: string;
  role: AdminRole;
  disabledAt: Date | null;
  createdAt: Date;
}

const toInfo = (record: AdminRecord): AdminInfo => ({
  id: record._id.toHexString(),
  username: record.username,
  role: record.role,
  disabledAt: record.disabledAt ?? null,
  createdAt: record.createdAt,
});

export class AdminAccountError extends Error {
  override name = 'AdminAccountError';
}

/** Creates an account; refuses a taken username and a username or password that breaks the rules. */
export async function createAdmin(
  db: DirectoryDb,
  input: { username: string; password: string; role?: AdminRole },
): Promise<AdminInfo> {
  const username = normalizeUsername(input.username);
  const problems = newAccountProblems(username, input.password);
  if (problems.length > 0) throw new AdminAccountError(problems.join('; '));
  try {
    const created = await db.admins.create({
      username,
      passwordHash: await hashPassword(input.password),
      role: input.role ?? 'admin',
    });
    return toInfo(created.toObject<AdminRecord>());
  } catch (error) {
    if ((error as { code?: number }).code === 11000) {
      throw new AdminAccountError(`an account named "${username}" already exists`);
    }
    throw error;
  }
}

export async function listAdmins(db: DirectoryDb): Promise<AdminInfo[]> {
  const records = await db.admins.find({}).sort({ username: 1 }).lean<AdminRecord[]>();
  return records.map(toInfo);
}

export const countAdmins = (db: DirectoryDb) => db.admins.countDocuments({});

/** False when no such account exists; disabling twice keeps the first time. */
export async function disableAdmin(db: DirectoryDb, username: string): Promise<boolean> {
  const record = await db.admins
    .findOne({ username: normalizeUsername(username) })
    .lean<AdminRecord>();
  if (!record) return false;
  if (!record.disabledAt) {
    await db.admins.updateOne({ _id: record._id }, { $set: { disabledAt: new Date() } });
  }
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
): Promise<AdminInfo | null> {
  const record = await db.admins
    .findOne({ username: normalizeUsername(username) })
    .lean<AdminRecord>();
  if (!record) return verifyAgainstDummy(password).then(() => null);
  const valid = await verifyPassword(record.passwordHash, password);
  return valid && !record.disabledAt ? toInfo(record) : null;
}

/** The account behind a token, if it still exists and is enabled. */
export async function findActiveAdmin(db: DirectoryDb, id: string): Promise<AdminInfo | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const record = await db.admins.findById(id).lean<AdminRecord>();
  return record && !record.disabledAt ? toInfo(record) : null;
}

export const findAdminByUsername = async (db: DirectoryDb, username: string) => {
  const record = await db.admins
    .findOne({ username: normalizeUsername(username) })
    .lean<AdminRecord>();
  return record ? toInfo(record) : null;
};

/** A password for a generated development account: 24 random characters. */
export const randomPassword = () => randomBytes(18).toString('base64url');
