// The finder's size budget for a phone on a weak connection: the whole page (HTML, script, styles
// and icon) at most 50 kB compressed, measured on the build as it is served (dist/web: each
// file's brotli and gzip twin written by vite.config.ts, or the file itself where compressing
// would not make it smaller). finder.test.ts measures the same in Chromium, as received.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { PAGES_DIR, PAGES_PREFIX } from '../../src/plugins/pages.js';

const BUDGET_BYTES = 50_000;

/** The finder's index.html and every file it references below the prefix. */
function finderFiles(): string[] {
  const html = readFileSync(path.join(PAGES_DIR, 'index.html'), 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  for (const url of referenced) expect(url.startsWith(PAGES_PREFIX)).toBe(true);
  return ['index.html', ...referenced.map((url) => url.slice(PAGES_PREFIX.length))];
}

const size = (file: string) => statSync(path.join(PAGES_DIR, file)).size;
const twinOrFile = (file: string, suffix: string) =>
  existsSync(path.join(PAGES_DIR, file + suffix)) ? size(file + suffix) : size(file);

describe('the finder’s size budget', () => {
  it('is at most 50 kB with brotli and with gzip: HTML, script, styles and icon together', () => {
    const files = finderFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^assets\/.+\.js$/),
        expect.stringMatching(/^assets\/.+\.css$/),
      ]),
    );
    const rows = files.map((file) => ({
      file,
      raw: size(file),
      gzip: twinOrFile(file, '.gz'),
      brotli: twinOrFile(file, '.br'),
    }));
    const total = (key: 'raw' | 'gzip' | 'brotli') => rows.reduce((sum, row) => sum + row[key], 0);
    console.log(
      [...rows, { file: 'total', raw: total('raw'), gzip: total('gzip'), brotli: total('brotli') }]
        .map((r) => `${r.file.padEnd(36)} ${r.raw} B, gzip ${r.gzip} B, brotli ${r.brotli} B`)
        .join('\n'),
    );
    expect(total('gzip')).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(total('brotli')).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it.each(['index.html', 'mein-eintrag/index.html', 'admin/index.html'])(
    '%s has no inline script or style, which the CSP would block',
    (page) => {
      const html = readFileSync(path.join(PAGES_DIR, page), 'utf8');
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html).not.toMatch(/<style[\s>]/);
      expect(html).not.toMatch(/\sstyle=/);
      expect(html).not.toMatch(/\son[a-z]+=/);
    },
  );
});
