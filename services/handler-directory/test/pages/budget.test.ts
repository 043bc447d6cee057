// The finder's size budget for a phone on a weak connection: the whole page (HTML, script, styles
// and icon) at most 50 kB compressed, measured on the build as it is served (dist/web: each
// file's brotli and gzip twin written by web-kit's precompress, or the file itself where compressing
// would not make it smaller). finder.test.ts measures the same in Chromium, as received.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { pageFileSizes, sizeTable, totalSize } from '@dogshop/web-kit/testing';
import { PAGES_DIR, PAGES_PREFIX } from '../../src/plugins/pages.js';

const BUDGET_BYTES = 50_000;

describe('the finder’s size budget', () => {
  it('is at most 50 kB with brotli and with gzip: HTML, script, styles and icon together', () => {
    const rows = pageFileSizes(PAGES_DIR, PAGES_PREFIX);
    expect(rows.map((row) => row.file)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^assets\/.+\.js$/),
        expect.stringMatching(/^assets\/.+\.css$/),
      ]),
    );
    console.log(sizeTable(rows));
    const total = totalSize(rows);
    expect(total.gzip).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(total.brotli).toBeLessThanOrEqual(BUDGET_BYTES);
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
