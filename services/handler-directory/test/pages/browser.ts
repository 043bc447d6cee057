// Support for the page tests: the real directory app listening on 127.0.0.1 (pages built by the
// test script's `vite build`), and Debian's Chromium driven by playwright-core (no browser
// download: the test script installs the `chromium` package when it is missing).
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
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
 * network refuses. Playwright gives every launch a fresh, empty profile (--user-data-dir is its
 * own option: it refuses the flag).
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
];

/** The phone the finder is made for. */
export const PHONE_VIEWPORT = { width: 360, height: 740 };

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
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
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
}

/** Opens a page of `app` at 360×740 (touch, German, Berlin time). */
export async function openPage(
  browser: Browser,
  app: ServedApp,
  { position, path = '/verzeichnis/', colorScheme = 'light' }: OpenOptions = {},
): Promise<PageSession> {
  const context = await browser.newContext({
    viewport: PHONE_VIEWPORT,
    isMobile: true,
    hasTouch: true,
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
