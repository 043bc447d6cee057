// Who may call what: the scopes a secret key carries and the scopes a staff role grants. The auth
// plugin (plugins/auth.ts) applies these to the `scope` a route declares; README "Access" says
// the same in prose.
import {
  API_KEY_SCOPES,
  STAFF_ROLES,
  type ApiKeyScope,
  type StaffRole,
} from '@dogshop/contracts/shop';

export { API_KEY_SCOPES, STAFF_ROLES, type ApiKeyScope, type StaffRole };

/** What a `staff` account may do, and a `viewer` read: the shop's daily work. */
const DAILY_WORK: readonly ApiKeyScope[] = [
  'orders:read',
  'orders:write',
  'catalogue:write',
  'customers:read',
  'reviews:moderate',
  'stats:read',
];

/**
 * Whether a staff role opens an operation needing `scope`: an admin everything; staff the daily
 * work (not keys, staff, webhooks, the event feed or the audit's `audit:read`); a viewer only the
 * reads of the daily work (every GET, the review list's `reviews:moderate` included).
 */
export function roleAllows(role: StaffRole, scope: ApiKeyScope, read: boolean): boolean {
  if (role === 'admin') return true;
  if (!DAILY_WORK.includes(scope)) return false;
  return role === 'staff' || read;
}

/** The roles that open an operation needing `scope` (documentation). */
export const rolesAllowing = (scope: ApiKeyScope, read: boolean): StaffRole[] =>
  STAFF_ROLES.filter((role) => roleAllows(role, scope, read));

export const isApiKeyScope = (value: string): value is ApiKeyScope =>
  (API_KEY_SCOPES as readonly string[]).includes(value);

/** A back-office read: GET (and HEAD) change nothing. */
export const isRead = (method: string) => method === 'GET' || method === 'HEAD';
