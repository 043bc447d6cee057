import { fileURLToPath } from 'node:url';
import { servePages as serveKitPages, type ServicePlugin } from '@dogshop/service-kit';
import type { ShopConfig } from '../config.js';

/**
 * The admin app's URL (as Medusa serves its dashboard at /app): `/admin/…` stays the API's, so a
 * deep link such as `/app/orders/42` never meets a JSON route. The gateway sends it to the shop
 * like every path that is not the directory's.
 */
export const PAGES_PREFIX = '/app/';

/** The build of web/ (vite.config.ts): the package's dist/web, from src/plugins and dist/plugins alike. */
export const PAGES_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * The admin app of `root` (service-kit's `servePages`): it routes in the browser, so every path
 * below /app/ answers its HTML.
 */
export const servePages = (root: string): ServicePlugin<ShopConfig> =>
  serveKitPages<ShopConfig>({
    prefix: PAGES_PREFIX,
    root,
    apps: [''],
    notBuilt: 'The admin app is not built (pnpm build in services/shop)',
  });

/** The admin app of this package's build (dist/web). */
export const pages: ServicePlugin<ShopConfig> = servePages(PAGES_DIR);
