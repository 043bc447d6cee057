// Builds the shop's admin app (web/) into dist/web/, which src/plugins/pages.ts serves at /app/.
// The same stack as the directory's pages (Vite, Preact, web-kit): see web/README.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from '@dogshop/web-kit/build';
import preact from '@preact/preset-vite';
import { defaultClientConditions, defineConfig } from 'vite';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('./dist/web/', import.meta.url));

export default defineConfig({
  root: WEB_DIR,
  // The app's prefix (PAGES_PREFIX in src/plugins/pages.ts): the same on the shop's own port and
  // through the gateway, so asset URLs are absolute.
  base: '/app/',
  plugins: [preact({ reactAliasesEnabled: false }), precompress(OUT_DIR)],
  // The workspace's packages (web-kit) from their sources, as the tests and type-checking read
  // them: an edit there is in the next build without building the package first.
  resolve: { conditions: ['@dogshop/source', ...defaultClientConditions] },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // Never a data: URI: the pages' CSP allows images from 'self' only.
    assetsInlineLimit: 0,
    // Every browser that runs the app knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: { input: { app: path.join(WEB_DIR, 'index.html') } },
  },
  // `vite` (dev server) against a shop running on its default port.
  server: {
    proxy: Object.fromEntries(
      ['/admin', '/webhooks'].map((prefix) => [prefix, 'http://127.0.0.1:3000']),
    ),
  },
});
