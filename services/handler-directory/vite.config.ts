// Builds the directory's pages (web/) into dist/web/, which src/plugins/pages.ts serves under
// /verzeichnis/. Preact is the one UI library: about 4 kB compressed with its hooks, the same
// components and JSX as React, so the finder (HTML, script and styles together) stays far inside
// its 50 kB budget for a phone on a weak connection. See web/README.md.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('./dist/web/', import.meta.url));

/** Compressed once here at their best levels, sent as they are (`preCompressed` in pages.ts). */
const COMPRESSIBLE = /\.(?:html|js|css|svg|json|txt|webmanifest)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, each only where it is
 * smaller than the file: the service has no compression of its own, and compressing at the best
 * levels on every request would cost more than the answer.
 */
function precompress(): Plugin {
  return {
    name: 'dogshop:precompress',
    apply: 'build',
    closeBundle() {
      const files = readdirSync(OUT_DIR, { recursive: true, withFileTypes: true }).filter(
        (entry) => entry.isFile() && COMPRESSIBLE.test(entry.name),
      );
      for (const entry of files) {
        const file = path.join(entry.parentPath, entry.name);
        const raw = readFileSync(file);
        const brotli = brotliCompressSync(raw, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gzip = gzipSync(raw, { level: zlib.Z_BEST_COMPRESSION });
        if (brotli.length < raw.length) writeFileSync(`${file}.br`, brotli);
        if (gzip.length < raw.length) writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

export default defineConfig({
  root: WEB_DIR,
  // The pages' prefix (PAGES_PREFIX in src/plugins/pages.ts): the same on the directory's own
  // port and through the gateway, so asset URLs are absolute.
  base: '/verzeichnis/',
  plugins: [preact({ reactAliasesEnabled: false }), precompress()],
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
