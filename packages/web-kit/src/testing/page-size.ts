// The size of a built page as it is served (a service's dist/web: each text file's brotli and gzip
// twin written by web-kit's `precompress`, or the file itself where compressing would not make it
// smaller), for the services' size budgets.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * The files a page loads first: its HTML (`page`, below `dir`) and every file the HTML references
 * (scripts, module preloads, styles, icon), each as the browser receives it. Throws on a
 * reference outside `prefix`, which the pages' CSP would refuse anyway.
 */
export function pageFileSizes(dir: string, prefix: string, page = 'index.html'): FileSize[] {
  const html = readFileSync(path.join(dir, page), 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  for (const url of referenced) {
    if (!url.startsWith(prefix)) throw new Error(`${page} references ${url}, outside ${prefix}`);
  }
  const size = (file: string) => statSync(path.join(dir, file)).size;
  const twinOrFile = (file: string, suffix: string) =>
    existsSync(path.join(dir, file + suffix)) ? size(file + suffix) : size(file);
  return [page, ...referenced.map((url) => url.slice(prefix.length))].map((file) => ({
    file,
    raw: size(file),
    gzip: twinOrFile(file, '.gz'),
    brotli: twinOrFile(file, '.br'),
  }));
}

/** The sizes' sum, as a row. */
export const totalSize = (rows: FileSize[]): FileSize => ({
  file: 'total',
  raw: rows.reduce((sum, row) => sum + row.raw, 0),
  gzip: rows.reduce((sum, row) => sum + row.gzip, 0),
  brotli: rows.reduce((sum, row) => sum + row.brotli, 0),
});

/** A table of the rows and their total, for a test's log. */
export const sizeTable = (rows: FileSize[]): string =>
  [...rows, totalSize(rows)]
    .map((r) => `${r.file.padEnd(40)} ${r.raw} B, gzip ${r.gzip} B, brotli ${r.brotli} B`)
    .join('\n');
