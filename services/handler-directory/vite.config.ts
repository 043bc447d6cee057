// Builds the directory's pages (web/) into dist/web/, which src/plugins/pages.ts serves under
// /verzeichnis/. Preact is the one UI library: about 4 kB compressed with its hooks, the same
// components and JSX as React, so the finder (HTML, script and styles together) stays far inside
// its 50 kB budget for a phone on a weak connection. See web/README.md.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from '@dogshop/web-kit/build';
import preact from '@preact/preset-vite';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('./dist/web/', import.meta.url));
/** The pages' prefix (PAGES_PREFIX in src/plugins/pages.ts). */
const BASE = '/verzeichnis/';

/**
 * Writes `sw.js`, the finder's service worker (web/README.md, "Offline and return visits"): it
 * precaches the finder's own files (its HTML and every file the HTML references: scripts,
 * stylesheet, icon) and answers those URLs, and only those, from its cache; everything else
 * (the API above all, the other pages, karte.json) passes through untouched. `VERSION` is a hash
 * of the list and the files' bytes, so a build that changes any of them changes sw.js, which the
 * browser checks on every visit (served `no-cache`): the new worker fetches the new set in the
 * background and takes over, and the next load shows the new build, HTML and assets together.
 *
 * Written by hand rather than with vite-plugin-pwa 2.0.0, which does support Vite 8: its
 * workbox-build bundles the worker with babel's preset-env, rollup 4 and terser (some 150
 * packages and a few seconds on every build of the test script) for what is 40 lines here, and
 * its defaults would each have to be undone (a navigation fallback that would answer
 * /verzeichnis/admin/ with the finder, a web manifest, a precache of every page's files).
 * Before `precompress` in the plugin list, so sw.js gets its twins (both hooks are synchronous).
 */
function finderServiceWorker(): Plugin {
  return {
    name: 'dogshop:finder-service-worker',
    apply: 'build',
    closeBundle() {
      const html = readFileSync(path.join(OUT_DIR, 'index.html'), 'utf8');
      const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
      const files = [BASE, ...new Set(referenced)];
      const hash = createHash('sha256');
      for (const url of files) {
        if (!url.startsWith(BASE)) throw new Error(`the finder references ${url}, outside ${BASE}`);
        const file = url === BASE ? 'index.html' : url.slice(BASE.length);
        hash.update(`${url}\n`).update(readFileSync(path.join(OUT_DIR, file)));
      }
      const version = hash.digest('hex').slice(0, 16);
      writeFileSync(path.join(OUT_DIR, 'sw.js'), serviceWorker(version, files));
    },
  };
}

/** The worker's script (plain JavaScript, no import: served as it is). */
function serviceWorker(version: string, files: string[]): string {
  return `// The finder's service worker, written by vite.config.ts (finderServiceWorker).
const CACHE = 'finder-${version}';
const FILES = ${JSON.stringify(files)};

self.addEventListener('install', (event) => {
  // Hashed files come from the HTTP cache when the page has just loaded them; HTML and icon are
  // revalidated (no-cache).
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => keys.filter((key) => key.startsWith('finder-') && key !== CACHE))
      .then((old) => Promise.all(old.map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// Only the finder's own files, cache-first; anything else (the API, the other pages, karte.json,
// a URL with a query) is not answered here and goes to the network as if there were no worker.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (
    event.request.method !== 'GET' ||
    url.origin !== self.location.origin ||
    url.search !== '' ||
    !FILES.includes(url.pathname)
  ) {
    return;
  }
  event.respondWith(
    caches
      .match(url.pathname, { cacheName: CACHE, ignoreVary: true })
      .then((cached) => cached || fetch(event.request)),
  );
});
`;
}

export default defineConfig({
  root: WEB_DIR,
  // The pages' prefix (PAGES_PREFIX in src/plugins/pages.ts): the same on the directory's own
  // port and through the gateway, so asset URLs are absolute.
  base: BASE,
  plugins: [preact({ reactAliasesEnabled: false }), finderServiceWorker(), precompress(OUT_DIR)],
  // The workspace's packages (web-kit) from their sources, as the tests and type-checking read
  // them: an edit there is in the next build without building the package first.
  resolve: { conditions: ['@dogshop/source', ...defaultClientConditions] },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // Never a data: URI: the pages' CSP allows images from 'self' only.
    assetsInlineLimit: 0,
    // Every browser that runs the pages knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      // One HTML file per page: the finder, the handler's page and the admin app.
      input: {
        finder: path.join(WEB_DIR, 'index.html'),
        handler: path.join(WEB_DIR, 'mein-eintrag/index.html'),
        admin: path.join(WEB_DIR, 'admin/index.html'),
      },
    },
  },
  // `vite` (dev server) against a directory running on its default port.
  server: { proxy: { '/api': 'http://127.0.0.1:3001' } },
});
