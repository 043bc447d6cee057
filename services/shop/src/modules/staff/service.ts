import type { CreateStaffBody, UpdateStaffBody } from '@dogshop/contracts/shop';
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
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import type { StaffRole } from '../access/policy.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { auditedStaff } from './mapper.js';
import {
  consumeStaffSetPasswordToken,
  countStaff,
  findAllStaff,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  lockEnabledAdmins,
  recordStaffLogin,
  replaceStaffPassword,
  updateStaff,
  type StaffRecord,
} from './repository.js';

export type { StaffRecord };

/** The signed-in staff member of a staff token (`request.account` with `kind: 'staff'`). */
export interface SignedInStaff {
  kind: 'staff';
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  tokenVersion: number;
}

const signedIn = (record: StaffRecord): SignedInStaff => ({
  kind: 'staff',
  id: record.id,
  email: record.email,
  name: record.name,
  role: record.role,
  tokenVersion: record.tokenVersion,
});

export const staffActor = (staff: Pick<SignedInStaff, 'id' | 'name'>): Actor => ({
  type: 'staff',
  id: staff.id,
  name: staff.name,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The enabled account of a staff token's subject, else null (its tokens then end). */
export async function staffOf(db: Db, subject: string): Promise<SignedInStaff | null> {
  const id = Number(subject);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const record = await findStaffById(db, id);
  return record && !record.disabledAt ? signedIn(record) : null;
}

/** The account when the credentials are right and it is enabled, else null (same work either way). */
async function authenticate(db: Db, email: string, password: string) {
  const record = await findStaffByEmail(db, email);
  if (!record?.passwordHash) return verifyAgainstDummy(password).then(() => null);
  const valid = await verifyPassword(record.passwordHash, password);
  return valid && !record.disabledAt ? record : null;
}

/**
 * Staff login, counted by the login limiter per address and account like the customers' (under
 * a `staff:` key, so the two never share a count): 401 for every failure alike, 429 once a
 * limit is spent.
 */
export async function staffLogin(
  db: Db,
  limiter: LoginLimiter,
  address: string,
  credentials: { email: string; password: string },
): Promise<SignedInStaff> {
  const email = normalizeEmail(credentials.email);
  const record = await limiter.login(address, `staff:${email}`, () =>
    authenticate(db, email, credentials.password),
  );
  await recordStaffLogin(db, record.id);
  return signedIn(record);
}

/**
 * Changes the signed-in account's password after checking the current one as a login does; every
 * earlier token ends. The account as changed, to sign this session's next token with.
 */
export async function changeStaffPassword(
  db: Db,
  limiter: LoginLimiter,
  address: string,
  staff: SignedInStaff,
  passwords: { current_password: string; new_password: string },
): Promise<SignedInStaff> {
  await limiter.login(address, `staff:${staff.email}`, () =>
    authenticate(db, staff.email, passwords.current_password),
  );
  const record = await replaceStaffPassword(
    db,
    staff.id,
    await hashPassword(passwords.new_password),
  );
  if (!record) throw notFound(`staff account ${staff.id} not found`);
  return signedIn(record);
}

/** Sets the password of the account whose one-time token this is (400 when none, used or expired). */
export async function setStaffPasswordWithToken(
  db: Db,
  token: string,
  password: string,
  now = new Date(),
): Promise<StaffRecord> {
  const record = await consumeStaffSetPasswordToken(
    db,
    hashOneTimeToken(token),
    now,
    await hashPassword(password),
  );
  if (!record) throw badRequest('This link is invalid, used or expired');
  return record;
}

export const listStaff = (db: Db) => findAllStaff(db);

export const hasStaff = async (db: Db) => (await countStaff(db)) > 0;

/**
 * Creates an account without a password and its one-time set-password token (72 h). With a
 * `password` (the first admin at start-up, the CLI), it can sign in at once instead.
 */
export async function createStaff(
  db: Db,
  actor: Actor | null,
  body: CreateStaffBody & { password?: string },
  now = new Date(),
): Promise<{ account: StaffRecord; setPassword?: OneTimeToken }> {
  const token = body.password === undefined ? newOneTimeToken(now) : undefined;
  const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
  try {
    const account = await db.$transaction(async (tx) => {
      const created = await insertStaff(tx, {
        email: normalizeEmail(body.email),
        name: body.name.trim(),
        role: body.role,
        ...(passwordHash ? { passwordHash } : {}),
        ...(token
          ? {
              setPasswordTokenHash: token.stored.tokenHash,
              setPasswordExpiresAt: token.stored.expiresAt,
            }
          : {}),
      });
      if (actor) {
        await insertAuditEntry(tx, actor, {
          action: 'staff.create',
          resource: 'staff',
          resourceId: created.id,
          after: auditedStaff(created),
        });
      }
      return created;
    });
    return { account, ...(token ? { setPassword: token.shown } : {}) };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('a staff account with this e-mail already exists');
    throw error;
  }
}

async function staffById(db: Db, id: number) {
  const record = await findStaffById(db, id);
  if (!record) throw notFound(`staff account ${id} not found`);
  return record;
}

const isEnabledAdmin = (record: Pick<StaffRecord, 'role' | 'disabledAt'>) =>
  record.role === 'admin' && record.disabledAt === null;

/**
 * Changes an account's role, name or disabled state in one transaction. The last enabled admin
 * stays: the enabled admins' rows are locked first, so of two admins demoting each other at once
 * the second waits and then sees it would leave none (409). Disabling ends the tokens at once
 * (the token check reads the account on every request).
 */
export const changeStaff = (
  db: Db,
  actor: Actor,
  id: number,
  body: UpdateStaffBody,
  now = new Date(),
): Promise<StaffRecord> =>
  db.$transaction(async (tx) => {
    const admins = await lockEnabledAdmins(tx);
    const before = await findStaffById(tx, id);
    if (!before) throw notFound(`staff account ${id} not found`);
    const disabledAt =
      body.disabled === undefined
        ? before.disabledAt
        : body.disabled
          ? (before.disabledAt ?? now)
          : null;
    const after = { role: body.role ?? before.role, disabledAt };
    if (isEnabledAdmin(before) && !isEnabledAdmin(after) && admins.every((a) => a === id)) {
      throw conflict('the last enabled admin cannot be disabled or demoted');
    }
    const changed = await updateStaff(tx, id, {
      ...after,
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    });
    await insertAuditEntry(tx, actor, {
      action: 'staff.update',
      resource: 'staff',
      resourceId: id,
      before: auditedStaff(before),
      after: auditedStaff(changed),
    });
    return changed;
  });

/**
 * A new one-time set-password token; earlier links stop working. The account's password and
 * tokens keep working until the new password is set.
 */
export async function resetStaffPassword(
  db: Db,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<OneTimeToken> {
  const record = await staffById(db, id);
  const token = newOneTimeToken(now);
  await db.$transaction(async (tx) => {
    await updateStaff(tx, record.id, {
      setPasswordTokenHash: token.stored.tokenHash,
      setPasswordExpiresAt: token.stored.expiresAt,
    });
    await insertAuditEntry(tx, actor, {
      action: 'staff.password_reset',
      resource: 'staff',
      resourceId: id,
    });
  });
  return token.shown;
}
