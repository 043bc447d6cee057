import type { Account as AccountView } from '@dogshop/contracts/handler-directory';
import type { AccountRecord } from '../../db/account-model.js';
import type { AccountRole } from './rules.js';

/** An account as the code uses it (never its password hash or token). */
export interface Account {
  id: string;
  username: string;
  role: AccountRole;
  /** The bound handler of a `handler` account (lower-case hex); null for the other roles. */
  handlerId: string | null;
  disabledAt: Date | null;
  passwordSet: boolean;
  /** Tokens signed at another version no longer work. */
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export const toAccount = (record: AccountRecord): Account => ({
  id: record._id.toHexString(),
  username: record.username,
  role: record.role,
  handlerId: record.handlerId ? record.handlerId.toHexString() : null,
  disabledAt: record.disabledAt ?? null,
  passwordSet: Boolean(record.passwordHash),
  tokenVersion: record.tokenVersion ?? 0,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

/** The account as the API shows it. */
export const toAccountView = (account: Account): AccountView => ({
  id: account.id,
  username: account.username,
  role: account.role,
  handlerId: account.handlerId,
  disabled: account.disabledAt !== null,
  passwordSet: account.passwordSet,
  createdAt: account.createdAt.toISOString(),
  updatedAt: account.updatedAt.toISOString(),
});
