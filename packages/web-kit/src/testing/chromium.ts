// The Chromium test helpers of both services' pages: Debian's Chromium (/usr/bin/chromium, no
// browser download) driven by playwright-core, a page opened at phone or desktop size that
// records every request, CSP violation and script error and checks on closing that none left the
// origin or happened, and the checks every page's test makes (labels, names, focus ring,
// contrast, nothing in web storage). Node code for the tests, no test framework of its own (the
// checks throw node:assert's errors).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserServer,
  type Download,
  type Page,
  type Response,
} from 'playwright-core';

/**
 * The features playwright-core (1.65) turns off itself. Chromium reads only the last
 * --disable-features of its command line, so ours repeats them (test/chromium.test.ts fails
 * when an upgrade adds one).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium still builds each window's address bar, whose drop-down is a WebUI page
 * preloaded in a renderer of its own: one per browser context, which cost more CPU than the
 * page under test (0.75 s a context; a page test file's Chromium 20.6 → 11.3 CPU-s without it).
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Chromium as root in a sandboxed, offline machine: no sandbox (root), no GPU, and none of its
 * own traffic (QUIC, first-run, background networking, component updates, sync), which a closed
 * network refuses; no address-bar pages. Playwright gives every launch a fresh, empty profile
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
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];

/** A phone (the public pages are made for it). */
export const PHONE_VIEWPORT = { width: 360, height: 740 };
/** An office screen (the admin apps' usual place). */
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

/** The browser's own UI language: a flag for Windows and macOS, LANGUAGE for Linux. */
export interface BrowserLanguage {
  /** LANGUAGE, e.g. `de`. */
  code: string;
  /** The flag, e.g. `de-DE`. */
  locale: string;
}

function launchOptions(language?: BrowserLanguage) {
  return {
    executablePath: chromiumPath(),
    args: language ? [...CHROMIUM_FLAGS, `--lang=${language.locale}`] : CHROMIUM_FLAGS,
    ...(language && { env: { ...process.env, LANGUAGE: language.code } }),
    headless: true,
  };
}

/** Where a run's shared browser of this language listens (an environment variable). */
const endpointVariable = (language?: BrowserLanguage) =>
  `DOGSHOP_CHROMIUM_${(language?.locale ?? 'default').replace(/\W/g, '_').toUpperCase()}`;

// The shared browsers by their variable, on globalThis: a Jest global setup and teardown may each
// load this module afresh.
const sharedBrowsers = ((
  globalThis as { __dogshopChromium?: Map<string, BrowserServer> }
).__dogshopChromium ??= new Map<string, BrowserServer>());

/**
 * One Chromium for a whole test run, as a Jest global setup and teardown (the workers inherit the
 * setup's environment): launchChromium then connects to it instead of starting its own, so each
 * test file opens fresh contexts in a running browser, as Playwright's own runner does, instead
 * of paying a browser's start (about a second of CPU, sixty times a run).
 */
export function sharedChromium(language?: BrowserLanguage) {
  const variable = endpointVariable(language);
  return {
    setup: async (): Promise<void> => {
      const server = await chromium.launchServer(launchOptions(language));
      sharedBrowsers.set(variable, server);
      process.env[variable] = server.wsEndpoint();
    },
    teardown: async (): Promise<void> => {
      await sharedBrowsers.get(variable)?.close();
      sharedBrowsers.delete(variable);
    },
  };
}

/**
 * Debian's Chromium, headless: the run's shared one when a global setup started it
 * (sharedChromium), else a browser of its own. `language`: the browser's own UI (date
 * pickers, validation texts), shown when the package's locale resources are installed
 * (chromium-l10n), e.g. `de` and `de-DE`. `close()` closes the contexts this test file opened
 * and, for a browser of its own, the browser.
 */
export function launchChromium({
  language,
}: { language?: BrowserLanguage } = {}): Promise<Browser> {
  const endpoint = process.env[endpointVariable(language)];
  return endpoint ? chromium.connect(endpoint) : chromium.launch(launchOptions(language));
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
  /** Console messages about the Content-Security-Policy, console errors, and uncaught errors. */
  problems: string[];
  /**
   * Closes the context, after checking that nothing left the origin (no third-party request),
   * the CSP blocked nothing and no script failed.
   */
  close: () => Promise<void>;
}

export interface OpenOptions {
  /** The browser's position, granted; absent: the position is not granted. */
  position?: { latitude: number; longitude: number };
  /** The page's path below `origin`. */
  path: string;
  /** The colour scheme (default light). */
  colorScheme?: 'light' | 'dark';
  /** A phone at 360×740 with touch (default), or a desktop screen at 1280×800. */
  device?: 'phone' | 'desktop';
  /** The context's locale and time zone (the page's language and clock). */
  locale: string;
  timezoneId: string;
  /**
   * Console errors that belong to the test rather than the page (a status the test provokes,
   * which Chromium logs as „Failed to load resource“): not counted as problems.
   */
  expectedConsoleErrors?: RegExp;
}

/** Opens `origin` + `path` in a new context, recording what `PageSession` says. */
export async function openPage(
  browser: Browser,
  origin: string,
  options: OpenOptions,
): Promise<PageSession> {
  const { position, colorScheme = 'light', device = 'phone' } = options;
  const phone = device === 'phone';
  const context = await browser.newContext({
    viewport: phone ? PHONE_VIEWPORT : DESKTOP_VIEWPORT,
    isMobile: phone,
    hasTouch: phone,
    locale: options.locale,
    timezoneId: options.timezoneId,
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
    const text = message.text();
    if (/Content[- ]Security[- ]Policy/i.test(text)) problems.push(text);
    else if (message.type() === 'error' && !options.expectedConsoleErrors?.test(text)) {
      problems.push(`console error: ${text}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  const response = await page.goto(`${origin}${options.path}`);
  if (!response) throw new Error(`no answer for ${options.path}`);
  return {
    context,
    page,
    response,
    requests,
    dialogs,
    problems,
    close: async () => {
      await context.close();
      assert.deepEqual(
        requests.filter((url) => !url.startsWith(`${origin}/`)),
        [],
        'requests off the origin',
      );
      assert.deepEqual(problems, [], 'CSP violations or script errors');
    },
  };
}

/** Saves the whole page as `<dir>/<name>.png`. */
export async function saveScreenshot(page: Page, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * A download's bytes, streamed from the browser (a shared browser is connected to, and then
 * Playwright has no local path for the file).
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  return buffer(await download.createReadStream());
}

/** The text the browser itself gives an empty required field (its own UI's language). */
export const browserValidationText = (page: Page) =>
  page.evaluate<string>(
    "(() => { const i = document.createElement('input'); i.required = true; return i.validationMessage; })()",
  );

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
      controls
        .filter((c) => (c as { labels?: ArrayLike<unknown> | null }).labels?.length === 0)
        .map((c) => c.outerHTML),
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

/**
 * Waits until `check` (run in Node, not in the page: Playwright's `waitForFunction` evaluates
 * its check inside the page, which a strict CSP refuses) is true, polling every 50 ms.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  { timeoutMs = 15_000, what = 'the condition' }: { timeoutMs?: number; what?: string } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
