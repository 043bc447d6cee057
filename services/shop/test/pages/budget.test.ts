// The admin app's first-load budget: at most 150 kB compressed for everything its page loads
// first (HTML, script, styles, icon), measured on the build as it is served (dist/web, with
// web-kit's precompressed twins); and its HTML has no inline code, which the CSP would block.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { pageFileSizes, sizeTable, totalSize } from '@dogshop/web-kit/testing';
import { PAGES_DIR, PAGES_PREFIX } from '../../src/plugins/pages.js';

const BUDGET_BYTES = 150_000;

describe('the admin app’s first load', () => {
  it('is at most 150 kB with brotli and with gzip', () => {
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

  it('has no inline script or style', () => {
    const html = readFileSync(path.join(PAGES_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style[\s>]/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });
});
