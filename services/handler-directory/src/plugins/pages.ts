import { fileURLToPath } from 'node:url';
import { servePages as serveKitPages, type ServicePlugin } from '@dogshop/service-kit';
import type { DirectoryConfig } from '../config.js';

export { pagesContentSecurityPolicy } from '@dogshop/service-kit';

/**
 * Where the pages live: the finder at /verzeichnis/, the handler's page and the admin app below
 * it (/verzeichnis/mein-eintrag/, /verzeichnis/admin/). Outside /api/, which the gateway sends to
 * the directory (everything else goes to the shop): the gateway has a location for this prefix,
 * so the same URLs work on the directory's own port and through the gateway.
 */
export const PAGES_PREFIX = '/verzeichnis/';

/** The build of web/ (vite.config.ts): the package's dist/web, from src/plugins and dist/plugins alike. */
export const PAGES_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * The pages' settings (`karte.json` below the prefix): the map's tile URL template and its
 * attribution, or `tiles: null` (no tiles: the map still takes a click).
 */
export const PAGES_SETTINGS = 'karte.json';

/** `https://tile.openstreetmap.org` of `https://tile.openstreetmap.org/{z}/{x}/{y}.png`. */
export function tileOrigin(template: string): string {
  return new URL(template.replace(/[{}]/g, '')).origin;
}

/**
 * The directory's pages of `root` (service-kit's `servePages`): the admin app routes in the
 * browser (`/verzeichnis/admin/konten`), so every path below it answers its HTML; the map's tile
 * host (the admin app's, `MAP_TILE_URL`) joins the CSP's `img-src`; the finder may ask for the
 * position and nothing else.
 */
export function servePages(root: string): ServicePlugin<DirectoryConfig> {
  return serveKitPages<DirectoryConfig>({
    prefix: PAGES_PREFIX,
    root,
    apps: ['admin/'],
    notBuilt:
      'Die Seiten des Verzeichnisses sind nicht gebaut (pnpm build in services/handler-directory)',
    imageOrigins: (config) => (config.mapTiles ? [tileOrigin(config.mapTiles.url)] : []),
    permissionsPolicy: 'geolocation=(self), camera=(), microphone=(), payment=(), usb=()',
    settings: { file: PAGES_SETTINGS, content: (config) => ({ tiles: config.mapTiles ?? null }) },
  });
}

/** The pages of this package's build (dist/web). */
export const pages: ServicePlugin<DirectoryConfig> = servePages(PAGES_DIR);
