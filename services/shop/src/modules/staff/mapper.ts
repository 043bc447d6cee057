import type { StaffAccount, StaffUser } from '@dogshop/contracts/shop';
import type { StaffRecord } from './repository.js';

export const toStaffUser = (
  record: Pick<StaffRecord, 'id' | 'email' | 'name' | 'role'>,
): StaffUser => ({
  id: record.id,
  email: record.email,
  name: record.name,
  role: record.role,
});

/** Never the password hash nor the pending link's hash. */
export const toStaffAccount = (record: StaffRecord): StaffAccount => ({
  ...toStaffUser(record),
  disabled: record.disabledAt !== null,
  has_password: record.passwordHash !== null,
  last_login_at: record.lastLoginAt?.toISOString() ?? null,
  created_at: record.createdAt.toISOString(),
});

/** What the audit keeps of an account: its visible fields, never a hash. */
export const auditedStaff = (record: StaffRecord) => ({
  email: record.email,
  name: record.name,
  role: record.role,
  disabled: record.disabledAt !== null,
});
