// Rules for administrator accounts, shared by the CLI, the start-up bootstrap and the config.

export const ADMIN_ROLES = ['admin', 'viewer'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Usernames are compared case-insensitively, so they are stored lower-cased. */
export const USERNAME_PATTERN = '^[A-Za-z0-9._@-]{3,64}$';
export const ADMIN_PASSWORD_LIMITS = { minLength: 12, maxLength: 128 } as const;

export const normalizeUsername = (username: string) => username.trim().toLowerCase();

export const isAdminRole = (value: string): value is AdminRole =>
  (ADMIN_ROLES as readonly string[]).includes(value);

/** Only `admin` may change the directory; `viewer` reads and exports. */
export const mayWrite = (role: AdminRole) => role === 'admin';

/** Problems with a new account's username or password (empty when both are acceptable). */
export function newAccountProblems(username: string, password: string): string[] {
  const problems: string[] = [];
  if (!new RegExp(USERNAME_PATTERN).test(username)) {
    problems.push('username: 3–64 characters of letters, digits, ".", "_", "@" or "-"');
  }
  const length = [...password].length;
  if (length < ADMIN_PASSWORD_LIMITS.minLength || length > ADMIN_PASSWORD_LIMITS.maxLength) {
    problems.push(
      `password: ${ADMIN_PASSWORD_LIMITS.minLength}–${ADMIN_PASSWORD_LIMITS.maxLength} characters`,
    );
  }
  return problems;
}
