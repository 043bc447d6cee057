// The Chromium the page tests drive (src/testing/chromium.ts), launched as they launch it: it
// keeps every feature playwright-core turns off, and it opens no WebUI page beside the page
// under test.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath } from '../src/testing/chromium';

let browser: Browser;
let cdp: CDPSession;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    // Chromium tells its command line to the protocol only under --enable-automation.
    args: [...CHROMIUM_FLAGS, '--enable-automation'],
    headless: true,
  });
  cdp = await browser.newBrowserCDPSession();
});
afterAll(() => browser?.close());

describe('the page tests’ Chromium', () => {
  it('turns off every feature playwright-core turns off (Chromium reads the last list only)', async () => {
    const { arguments: args } = await cdp.send('Browser.getBrowserCommandLine');
    const lists = args
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    // Playwright's own list comes first, the helpers' flags after it.
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const [playwrights = [], ours = []] = [lists[0], lists.at(-1)];
    expect(playwrights.filter((feature) => !ours.includes(feature))).toEqual([]);
  });

  it('opens no address-bar WebUI beside a page: one page, one target', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('data:text/html,<title>t</title><p>page under test</p>');
      const { targetInfos } = await cdp.send('Target.getTargets');
      expect(targetInfos.map(({ type, url }) => ({ type, url }))).toEqual([
        { type: 'page', url: 'data:text/html,<title>t</title><p>page under test</p>' },
      ]);
    } finally {
      await context.close();
    }
  });
});
