// Build-time helper of both services' vite.config.ts (Node, not the browser).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** Compressed once at build time at their best levels, sent as they are (service-kit's `servePages`). */
const COMPRESSIBLE = /\.(?:html|js|css|svg|json|txt|webmanifest)$/;

/**
 * A Vite plugin that writes `<file>.br` and `<file>.gz` beside every text file of the build in
 * `outDir`, each only where it is smaller than the file: the services have no compression of their
 * own, and compressing at the best levels on every request would cost more than the answer. Put it
 * last among the plugins, so files other plugins write when the bundle closes get their twins too.
 * (Typed structurally: a Vite `Plugin`, without making Vite a dependency of this package.)
 */
export function precompress(outDir: string) {
  return {
    name: 'dogshop:precompress',
    apply: 'build' as const,
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter(
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
