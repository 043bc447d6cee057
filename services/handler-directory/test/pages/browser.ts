// Support for the page tests: the real directory app listening on 127.0.0.1 (pages built by the
// test script's `vite build`), and Debian's Chromium driven by playwright-core (no browser
// download: the test script installs the `chromium` package when it is missing).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Response,
} from 'playwright-core';
import { createTestApp, type TestApp } from '../support/app.js';

/**
 * Chromium as root in a sandboxed, offline machine: no sandbox (root), no GPU, and none of its
 * own traffic (QUIC, first-run, background networking, component updates, sync), which a closed
 * network refuses; its UI in German. Playwright gives every launch a fresh, empty profile
 * (--user-data-dir is its own option: it refuses the flag).
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The browser's own UI in German (on Windows and macOS; Linux takes LANGUAGE, below).
  '--lang=de-DE',
];

/**
 * The browser's own UI in German, as a German user's: date fields read tt.mm.jjjj, their pickers
 * and the browser's validation texts are German (the context's locale sets the page's language,
 * not the browser's). Chromium on Linux takes it from LANGUAGE, and shows it when its German
 * resources are installed (Debian: chromium-l10n, which `pnpm screenshots` installs); else
 * English.
 */
const GERMAN_UI = { ...process.env, LANGUAGE: 'de' };

/** The phone the finder is made for. */
export const PHONE_VIEWPORT = { width: 360, height: 740 };
/** An office screen (the admin app's usual place). */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

/** `chromium` on PATH (Debian's package: /usr/bin/chromium). */
export function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'chromium is not installed: the test script installs Debian’s package (apt-get install chromium)',
    );
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
    env: GERMAN_UI,
    headless: true,
  });
}

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

export interface PageSession {
  context: BrowserContext;
  page: Page;
  /** The answer to the page's own URL. */
  response: Response;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Messages of alert/confirm/prompt dialogs (dismissed). */
  dialogs: string[];
  /** Console messages about the Content-Security-Policy, and uncaught errors. */
  problems: string[];
  /**
   * Closes the context, after checking that nothing left `origin` (no third-party request), the
   * CSP blocked nothing and no script failed.
   */
  close: () => Promise<void>;
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

/** Opens a page of `app` on a phone at 360×740 or a desktop (German, Berlin time). */
export async function openPage(
  browser: Browser,
  app: ServedApp,
  { position, path = '/verzeichnis/', colorScheme = 'light', device = 'phone' }: OpenOptions = {},
): Promise<PageSession> {
  const phone = device === 'phone';
  const context = await browser.newContext({
    viewport: phone ? PHONE_VIEWPORT : DESKTOP_VIEWPORT,
    isMobile: phone,
    hasTouch: phone,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    colorScheme,
    ...(position && { geolocation: position, permissions: ['geolocation'] }),
  });
  const requests: string[] = [];
  const dialogs: string[] = [];
  const problems: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  const response = await page.goto(`${app.url}${path}`);
  if (!response) throw new Error(`no answer for ${path}`);
  return {
    context,
    page,
    response,
    requests,
    dialogs,
    problems,
    close: async () => {
      await context.close();
      expect(requests.filter((url) => !url.startsWith(`${app.url}/`))).toEqual([]);
      expect(problems).toEqual([]);
    },
  };
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
 * The text the browser itself gives an empty required field: its own UI's language (German:
 * „Fülle dieses Feld aus.“, in older versions „Füllen Sie dieses Feld aus.“).
 */
export const browserValidationText = (page: Page) =>
  page.evaluate<string>(
    "(() => { const i = document.createElement('input'); i.required = true; return i.validationMessage; })()",
  );

/**
 * Saves the whole page as `<name>.png` (for example `finder-phone`). The README's copies
 * (SCREENSHOT_DIR set) are taken in a German browser UI only: the run fails otherwise.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) {
    expect(await browserValidationText(page)).toMatch(/^Fülle(n Sie)? dieses Feld aus\.$/);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The focused element's outline. */
export async function focusRing(page: Page) {
  return page.evaluate<{ style: string; width: number }>(
    `(() => { const s = getComputedStyle(document.activeElement);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) }; })()`,
  );
}

/**
 * Visible text whose contrast with the background behind it is under 4.5:1 (WCAG 2.2, 1.4.3),
 * with the colours as computed: each element that holds text directly, against the first
 * non-transparent background up its ancestors.
 */
export async function lowContrastTexts(page: Page) {
  return page.evaluate<string[]>(`(() => {
    const rgb = (value) => value.match(/[\\d.]+/g).map(Number);
    const luminance = ([r, g, b]) => {
      const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length < 4 || c[3] > 0) return c;
      }
      return [255, 255, 255];
    };
    const low = [];
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.checkVisibility() || el.closest('.visually-hidden')) continue;
      const fg = luminance(rgb(getComputedStyle(el).color));
      const bg = luminance(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (ratio < 4.5) low.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
    }
    return low;
  })()`);
}

/** The page's inputs, selects and text areas without a label (each as its HTML). */
export const unlabelledControls = (page: Page) =>
  page
    .locator('input, select, textarea')
    .evaluateAll((controls) =>
      controls.filter((c) => c.labels.length === 0).map((c) => c.outerHTML),
    );

/** The page's buttons and links without a name (each as its HTML). */
export const namelessButtons = (page: Page) =>
  page
    .locator('button, a')
    .evaluateAll((controls) =>
      controls
        .filter((c) => !(c.getAttribute('aria-label') ?? c.textContent ?? '').trim())
        .map((c) => c.outerHTML),
    );

/** What the page left in the browser's storage: nothing, for pages that keep the token in memory. */
export async function storedState(page: Page) {
  return {
    local: await page.evaluate<number>('localStorage.length'),
    session: await page.evaluate<number>('sessionStorage.length'),
    cookies: await page.context().cookies(),
  };
}
