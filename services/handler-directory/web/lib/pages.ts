// The directory's pages by the role that uses each, for links between them (an account signed in
// on the wrong page is sent to its own).
import type { Role } from './session';

const HANDLER_PAGE = { href: '/verzeichnis/mein-eintrag/', name: 'Mein Eintrag' };
const ADMIN_APP = { href: '/verzeichnis/admin/', name: 'Verwaltung' };

export const PAGE_OF_ROLE: Record<Role, { href: string; name: string }> = {
  handler: HANDLER_PAGE,
  admin: ADMIN_APP,
  viewer: ADMIN_APP,
};

/** German names of the roles. */
export const ROLE_NAMES: Record<Role, string> = {
  admin: 'Administration',
  viewer: 'nur lesen',
  handler: 'Hundeführer',
};
