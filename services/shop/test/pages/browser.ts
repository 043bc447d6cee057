// Support for the admin app's page tests: the real shop listening on 127.0.0.1 (the app built by
// the test script's `pnpm build:web`), and Debian's Chromium driven by playwright-core through
// web-kit's test helpers (no browser download: the test script installs the `chromium` package
// when it is missing), with what is the shop's own: English, the app's path, the login form's
// labels, staff accounts, the screenshots' folder.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import {
  launchChromium as launchKitChromium,
  storedState,
  openPage as openKitPage,
  saveScreenshot as saveKitScreenshot,
  type PageSession,
} from '@dogshop/web-kit/testing';
import type { Browser, Page } from 'playwright-core';
import type { ShopConfig } from '../../src/config.js';
import type { StaffRole } from '../../src/modules/access/policy.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { staffMember, STAFF_PASSWORD, type SignedInStaffMember } from '../support/staff.js';
import { BROWSER_LANGUAGE } from './shared-browser.js';

export {
  DESKTOP_VIEWPORT,
  downloadedBytes,
  focusRing,
  lowContrastTexts,
  namelessButtons,
  PHONE_VIEWPORT,
  storedState,
  unlabelledControls,
  waitUntil,
  type PageSession,
} from '@dogshop/web-kit/testing';

/** The app's path. */
export const APP = '/app/';

/** The longest wait for one thing on a page (generous: other tests run beside these). */
export const WAIT_MS = 15_000;

/** Debian's Chromium in English: the run's shared one (shared-browser.ts). */
export const launchChromium = (): Promise<Browser> =>
  launchKitChromium({ language: BROWSER_LANGUAGE });

export interface ServedApp extends TestApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/**
 * The real shop (its own database) listening on a free loopback port; `overrides` change its
 * configuration (`webhookTestConfig()`: the delivery worker on, loopback receivers allowed).
 */
export async function serveApp(overrides: Partial<ShopConfig> = {}): Promise<ServedApp> {
  const t = await createTestApp(overrides);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return { ...t, url: `http://127.0.0.1:${port}` };
}

export interface OpenOptions {
  path?: string;
  colorScheme?: 'light' | 'dark';
  /** A phone at 360×740 with touch, or a desktop screen at 1280×800 (default). */
  device?: 'phone' | 'desktop';
  /** Console errors the test provokes (a refused write's status). */
  expectedConsoleErrors?: RegExp;
}

/**
 * Opens a page of the app (its orders by default) in English, Berlin time. On closing, the
 * session checks that the page left nothing in web storage or cookies (the token lives in its
 * memory only), nothing left the app's origin, the CSP blocked nothing, no script failed and no
 * script logged an error (a refused request's line, „Failed to load resource“, is what a test
 * provokes and checks itself).
 */
export async function openPage(
  browser: Browser,
  app: ServedApp,
  { path = APP, device = 'desktop', ...options }: OpenOptions = {},
): Promise<PageSession> {
  const session = await openKitPage(browser, app.url, {
    expectedConsoleErrors: /^Failed to load resource: /,
    ...options,
    path,
    device,
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
  });
  const close = session.close;
  session.close = async () => {
    if (!session.page.isClosed()) {
      expect(await storedState(session.page)).toEqual({ local: 0, session: 0, cookies: [] });
    }
    await close();
  };
  return session;
}

/** Signs in through the app's login form and waits until the account bar shows. */
export async function signIn(page: Page, email: string, password = STAFF_PASSWORD): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${email}`).waitFor({ timeout: WAIT_MS });
}

/** The shop served, Chromium launched, and a signed-in staff account per role named. */
export type BrowserTestSetup<R extends StaffRole> = {
  app: ServedApp;
  browser: Browser;
} & Record<R, SignedInStaffMember>;

/**
 * What a page test's `beforeAll` starts: the shop (`overrides` as for serveApp) and Chromium side
 * by side, then an account of each role in `names` (role → display name), under its role.
 * Close with closeBrowserTest.
 */
export async function openBrowserTest<R extends StaffRole>(
  names: Record<R, string>,
  overrides: Partial<ShopConfig> = {},
): Promise<BrowserTestSetup<R>> {
  const [app, browser] = await Promise.all([serveApp(overrides), launchChromium()]);
  const roles = Object.keys(names) as R[];
  const accounts = await Promise.all(roles.map((role) => staffMember(app, role, names[role])));
  const staff = Object.fromEntries(roles.map((role, i) => [role, accounts[i]]));
  return { ...(staff as Record<R, SignedInStaffMember>), app, browser };
}

/** What `afterAll` closes: the browser and the shop (either may be missing if setup failed). */
export async function closeBrowserTest(app?: ServedApp, browser?: Browser): Promise<void> {
  await browser?.close();
  await app?.close();
}

/** Opens `path` as `account` (signed in there), on a desktop unless told otherwise. */
export async function signedInAt(
  browser: Browser,
  app: ServedApp,
  account: SignedInStaffMember,
  options: OpenOptions = {},
): Promise<PageSession> {
  const s = await openPage(browser, app, options);
  s.page.setDefaultTimeout(WAIT_MS);
  await signIn(s.page, account.email);
  return s;
}

/**
 * Where the tests save their screenshots of the app: SCREENSHOT_DIR, else the git-ignored
 * test-output/screenshots of this package. `pnpm screenshots` writes the README's copies
 * (docs/screenshots at the repository's root).
 */
const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR ??
  fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/** Saves the whole page as `<name>.png` (for example `shop-orders-phone`). */
export const saveScreenshot = (page: Page, name: string): Promise<void> =>
  saveKitScreenshot(page, SCREENSHOT_DIR, name);
