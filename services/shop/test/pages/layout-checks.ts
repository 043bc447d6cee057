// Checks every page test makes of what it shows (on a phone, light and dark): readable (contrast in
// the scheme it is shown in), every control labelled, every button and link named, and nothing
// wider than the screen except a table scrolling inside its `.table-wrap`; and moving within the
// app without loading the page again (a reload would sign the staff member out: the token is in
// memory only).
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import { lowContrastTexts, namelessButtons, unlabelledControls } from './browser.js';

/** Elements reaching past the viewport's right edge, outside a `.table-wrap` (each as a tag). */
export const overflowing = (page: Page) =>
  page.evaluate<{ scrollWidth: number; viewport: number; wide: string[] }>(`(() => {
    const viewport = document.documentElement.clientWidth;
    const wide = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('.table-wrap') || !el.checkVisibility()) continue;
      const box = el.getBoundingClientRect();
      if (box.right > viewport + 0.5 || box.left < -0.5) {
        wide.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className) : '') + ' ' + Math.round(box.right));
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, viewport, wide };
  })()`);

/** Contrast, labels, names and width as the house standards ask (see the file's comment). */
export async function expectReadableAndFitting(page: Page): Promise<void> {
  expect(await lowContrastTexts(page)).toEqual([]);
  expect(await unlabelledControls(page)).toEqual([]);
  expect(await namelessButtons(page)).toEqual([]);
  const { scrollWidth, viewport, wide } = await overflowing(page);
  expect(wide).toEqual([]);
  expect(scrollWidth).toBeLessThanOrEqual(viewport);
}

/** Shows `path` of the app as a click on a link would (the router's popstate), signed in still. */
export async function goTo(page: Page, path: string): Promise<void> {
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
}
