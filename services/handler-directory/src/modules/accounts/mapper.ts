import type { AccountRecord } from '../../db/account-model.js';
import type { AccountRole } from './rules.js';

/** An administrator account as the code uses it (never its password hash). */
export interface Account {
  id: string;
  username: string;
  role: AccountRole;
  disabledAt: Date | null;
  createdAt: Date;
}

export const toAccount = (record: AccountRecord): Account => ({
  id: record._id.toHexString(),
  username: record.username,
  role: record.role,
  disabledAt: record.disabledAt ?? null,
  createdAt: record.createdAt,
});
