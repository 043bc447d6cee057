import type { Db, Tx } from '../../db/client.js';
import type { StaffAccount, StaffRole } from '../../generated/prisma/client.js';

export type StaffRecord = StaffAccount;

export const insertStaff = (
  db: Db | Tx,
  account: {
    email: string;
    name: string;
    role: StaffRole;
    passwordHash?: string;
    setPasswordTokenHash?: string;
    setPasswordExpiresAt?: Date;
  },
): Promise<StaffRecord> => db.staffAccount.create({ data: account });

export const findStaffById = (db: Db | Tx, id: number): Promise<StaffRecord | null> =>
  db.staffAccount.findUnique({ where: { id } });

export const findStaffByEmail = (db: Db, email: string): Promise<StaffRecord | null> =>
  db.staffAccount.findUnique({ where: { email } });

export const findAllStaff = (db: Db): Promise<StaffRecord[]> =>
  db.staffAccount.findMany({ orderBy: { email: 'asc' } });

export const countStaff = (db: Db) => db.staffAccount.count();

/**
 * Locks every enabled admin's row (FOR UPDATE, in id order) and returns their ids: a change that
 * may remove an admin holds these until it commits, so two concurrent demotions cannot both see
 * the other still in place.
 */
export const lockEnabledAdmins = async (tx: Tx): Promise<number[]> =>
  (
    await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM staff_accounts
       WHERE role = 'admin' AND disabled_at IS NULL
       ORDER BY id
         FOR UPDATE`
  ).map((row) => row.id);

export const updateStaff = (
  db: Db | Tx,
  id: number,
  data: Partial<
    Pick<
      StaffRecord,
      'role' | 'name' | 'disabledAt' | 'setPasswordTokenHash' | 'setPasswordExpiresAt'
    >
  >,
): Promise<StaffRecord> => db.staffAccount.update({ where: { id }, data });

export const recordStaffLogin = (db: Db, id: number) =>
  db.staffAccount.update({
    where: { id },
    data: { lastLoginAt: new Date() },
    select: { id: true },
  });

/** Replaces the password and ends the account's tokens; null when the account is gone. */
export async function replaceStaffPassword(
  db: Db,
  id: number,
  passwordHash: string,
): Promise<StaffRecord | null> {
  const [account] = await db.staffAccount.updateManyAndReturn({
    where: { id },
    data: { passwordHash, tokenVersion: { increment: 1 } },
  });
  return account ?? null;
}

/**
 * Sets the password of the enabled account whose pending link has this hash and has not
 * expired, forgets the link and ends the account's tokens, in one statement: a link works once,
 * even when two requests race. The account, or null.
 */
export async function consumeStaffSetPasswordToken(
  db: Db,
  tokenHash: string,
  now: Date,
  passwordHash: string,
): Promise<StaffRecord | null> {
  const [account] = await db.staffAccount.updateManyAndReturn({
    where: { setPasswordTokenHash: tokenHash, setPasswordExpiresAt: { gt: now }, disabledAt: null },
    data: {
      passwordHash,
      setPasswordTokenHash: null,
      setPasswordExpiresAt: null,
      tokenVersion: { increment: 1 },
    },
  });
  return account ?? null;
}
