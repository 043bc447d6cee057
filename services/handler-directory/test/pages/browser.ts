// Support for the page tests: the real directory app listening on 127.0.0.1 (pages built by the
// test script's `vite build`), and Debian's Chromium driven by playwright-core through web-kit's
// test helpers (no browser download: the test script installs the `chromium` package when it is
// missing), with what is the directory's own: the German browser UI and locale, Berlin time,
// the finder's path, the German login form and the screenshots' folder.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import {
  browserValidationText,
  launchChromium as launchKitChromium,
  openPage as openKitPage,
  saveScreenshot as saveKitScreenshot,
  type PageSession,
} from '@dogshop/web-kit/testing';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app.js';
import { BROWSER_LANGUAGE } from './shared-browser.js';

export {
  browserValidationText,
  DESKTOP_VIEWPORT,
  downloadedBytes,
  focusRing,
  lowContrastTexts,
  namelessButtons,
  PHONE_VIEWPORT,
  storedState,
  unlabelledControls,
  type PageSession,
} from '@dogshop/web-kit/testing';

/** Debian's Chromium with its own UI in German: the run's shared one (shared-browser.ts). */
export const launchChromium = (): Promise<Browser> =>
  launchKitChromium({ language: BROWSER_LANGUAGE });

export interface ServedApp extends TestApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/** The real app (its own database, an admin and a viewer) listening on a free loopback port. */
export async function serveApp(): Promise<ServedApp> {
  const t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return { ...t, url: `http://127.0.0.1:${port}` };
}

export interface OpenOptions {
  /** The browser's position, granted; absent: the position is not granted. */
  position?: { latitude: number; longitude: number };
  path?: string;
  /** The phone's colour scheme (default light). */
  colorScheme?: 'light' | 'dark';
  /** A phone at 360×740 with touch (default), or a desktop screen at 1280×800. */
  device?: 'phone' | 'desktop';
}

/**
 * Opens a page of `app` (the finder by default) on a phone at 360×740 or a desktop, German, Berlin
 * time. On closing, the session checks that nothing left the app's origin, the CSP blocked
 * nothing, no script failed and no script logged an error (the browser's own line about a
 * resource that failed to load, an error status or no network, is what the test provoked and
 * checks itself, not a failure of the page).
 */
export function openPage(
  browser: Browser,
  app: ServedApp,
  { path = '/verzeichnis/', ...options }: OpenOptions = {},
): Promise<PageSession> {
  return openKitPage(browser, app.url, {
    ...options,
    path,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    expectedConsoleErrors: /^Failed to load resource: /,
  });
}

/**
 * Signs in through a page's login form (the handler's page, the admin app) and waits until the
 * form is gone.
 */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('heading', { name: 'Anmelden' }).waitFor({ state: 'detached' });
}

/**
 * Where the tests save their screenshots of the pages: SCREENSHOT_DIR, else the git-ignored
 * test-output/screenshots of this package. `pnpm screenshots` writes the README's copies
 * (docs/screenshots at the repository's root).
 */
const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR ??
  fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

/**
 * Saves the whole page as `<name>.png` (for example `finder-phone`). The README's copies
 * (SCREENSHOT_DIR set) are taken in a German browser UI only: the run fails otherwise.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) {
    expect(await browserValidationText(page)).toMatch(/^Fülle(n Sie)? dieses Feld aus\.$/);
  }
  await saveKitScreenshot(page, SCREENSHOT_DIR, name);
}
