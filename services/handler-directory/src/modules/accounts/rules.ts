// Rules for accounts, shared by the API, the CLI, the start-up bootstrap and the config.

export const ACCOUNT_ROLES = ['admin', 'viewer', 'handler'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Usernames are compared case-insensitively, so they are stored lower-cased. */
export const USERNAME_PATTERN = '^[A-Za-z0-9._@-]{3,64}$';
export const PASSWORD_LIMITS = { minLength: 12, maxLength: 128 } as const;

export const normalizeUsername = (username: string) => username.trim().toLowerCase();

export const isAccountRole = (value: string): value is AccountRole =>
  (ACCOUNT_ROLES as readonly string[]).includes(value);

/** Only `admin` changes the directory and manages accounts. */
export const mayWrite = (role: AccountRole) => role === 'admin';

/** `admin` and `viewer` read every handler, the history, and export; a `handler` reads its own. */
export const mayReadAll = (role: AccountRole) => role === 'admin' || role === 'viewer';

/** Problems with a new account's username or password (empty when both are acceptable). */
export function newAccountProblems(username: string, password: string): string[] {
  const problems: string[] = [];
  if (!new RegExp(USERNAME_PATTERN).test(username)) {
    problems.push('username: 3–64 characters of letters, digits, ".", "_", "@" or "-"');
  }
  const length = [...password].length;
  if (length < PASSWORD_LIMITS.minLength || length > PASSWORD_LIMITS.maxLength) {
    problems.push(`password: ${PASSWORD_LIMITS.minLength}–${PASSWORD_LIMITS.maxLength} characters`);
  }
  return problems;
}
