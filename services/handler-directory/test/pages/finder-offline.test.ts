// The finder's service worker (sw.js, written by vite.config.ts) in real headless Chromium: after
// a first visit it controls the page and answers the finder's own files from its cache, so a
// return visit needs only the API's round trip and the page comes up with no network at all,
// saying in German that the directory cannot be reached. It never answers the API (a stale
// "available" is dangerous), the other pages or karte.json, and keeps nothing of them. Every page
// checks on closing that no request left the origin and the CSP blocked nothing (browser.ts).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import type { Browser, Page, Response } from 'playwright-core';
import { sleep } from '@dogshop/child-processes';
import { PAGES_DIR, PAGES_PREFIX, PAGES_SETTINGS, servePages } from '../../src/plugins/pages.js';
import { createHandler } from '../support/handlers.js';
import { launchChromium, openPage, serveApp, type ServedApp } from './browser.js';

/** OFFLINE_TEXT of web/lib/api.ts: the request did not reach the directory. */
const OFFLINE_TEXT =
  'Keine Verbindung zum Verzeichnis. Bitte Netzempfang prüfen und erneut versuchen.';
const LEIPZIG = { latitude: 51.34, longitude: 12.37 };

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
  await createHandler(app, { name: 'Lena Leipzig', gps: { lat: 51.345, lng: 12.375 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/**
 * Whether `check` holds within `ms`, polled from Node: the CSP refuses the evaluated functions of
 * Playwright's waitForFunction.
 */
async function within(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await sleep(50);
  }
  return true;
}

async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  if (!(await within(check, ms))) throw new Error(`timed out waiting for ${what}`);
}

/** The registration's workers and their states, for a message. */
const workers = (page: Page) =>
  page.evaluate<string>(`navigator.serviceWorker.getRegistration().then((r) => JSON.stringify({
    active: r?.active?.state, waiting: r?.waiting?.state, installing: r?.installing?.state,
  }))`);

/** The worker controlling the page, once its install (the precache) is done. */
async function controlled(page: Page): Promise<void> {
  await until(
    () => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'),
    'the service worker to control the page',
  );
}

/** Every URL the worker keeps, by cache. */
function cached(page: Page) {
  return page.evaluate<Record<string, string[]>>(`(async () => {
    const out = {};
    for (const key of await caches.keys()) {
      const requests = await (await caches.open(key)).keys();
      out[key] = requests.map((r) => new URL(r.url).pathname + new URL(r.url).search).sort();
    }
    return out;
  })()`);
}

/** The page's answers by path, and whether the worker gave them. */
function answers(page: Page): Map<string, boolean> {
  const seen = new Map<string, boolean>();
  page.on('response', (response: Response) =>
    seen.set(new URL(response.url()).pathname, response.fromServiceWorker()),
  );
  return seen;
}

const cards = async (page: Page) => {
  await page.getByRole('heading', { level: 2, name: /verfügbar/i }).waitFor();
  return page.locator('.card h3').allTextContents();
};

describe('the finder’s service worker', () => {
  it('controls the page after a first visit, answers the finder’s files from its cache and the API never', async () => {
    const session = await openPage(browser, app, { position: LEIPZIG });
    const { page } = session;
    try {
      expect(await cards(page)).toEqual(['Lena Leipzig']);
      await controlled(page);
      const scriptUrl = await page.evaluate<string>('navigator.serviceWorker.controller.scriptURL');
      expect(scriptUrl).toBe(`${app.url}${PAGES_PREFIX}sw.js`);

      // The precache: the finder's HTML, its scripts, its stylesheet and its icon, nothing else.
      const caches = await cached(page);
      expect(Object.keys(caches)).toEqual([expect.stringMatching(/^finder-[0-9a-f]{16}$/)]);
      const files = Object.values(caches)[0]!;
      expect(files).toContain(PAGES_PREFIX);
      expect(files).toContain(`${PAGES_PREFIX}favicon.svg`);
      expect(
        files.filter((f) => /^\/verzeichnis\/assets\/finder-[\w-]+\.js$/.test(f)),
      ).toHaveLength(1);
      expect(files.filter((f) => f.endsWith('.css'))).toHaveLength(1);
      expect(
        files.every(
          (f) =>
            f === PAGES_PREFIX ||
            /^\/verzeichnis\/(?:assets\/[\w-]+\.(?:js|css)|favicon\.svg)$/.test(f),
        ),
      ).toBe(true);

      // A return visit: the page and its files from the worker, the search from the network.
      const seen = answers(page);
      const reload = (await page.reload())!;
      expect(reload.fromServiceWorker()).toBe(true);
      expect(await cards(page)).toEqual(['Lena Leipzig']);
      expect(await page.evaluate<boolean>('navigator.serviceWorker.controller !== null')).toBe(
        true,
      );
      for (const file of files)
        expect({ file, fromWorker: seen.get(file) }).toEqual({ file, fromWorker: true });
      expect(seen.get('/api/public/users')).toBe(false);

      // The settings file and the other pages pass by it, and it keeps none of them.
      const settings = await page.evaluate<number>(
        `fetch('${PAGES_PREFIX}${PAGES_SETTINGS}').then((r) => r.status)`,
      );
      expect(settings).toBe(200);
      expect(seen.get(PAGES_PREFIX + PAGES_SETTINGS)).toBe(false);
      for (const other of ['admin/', 'mein-eintrag/']) {
        const answer = (await page.goto(`${app.url}${PAGES_PREFIX}${other}`))!;
        expect({ other, fromWorker: answer.fromServiceWorker() }).toEqual({
          other,
          fromWorker: false,
        });
        await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
      }
      expect(await cached(page)).toEqual(caches);
    } finally {
      await session.close();
    }
  });

  it('with no network at all: a reload shows the finder and the German offline message; the other pages do not load', async () => {
    const session = await openPage(browser, app, { position: LEIPZIG });
    const { page, context } = session;
    try {
      expect(await cards(page)).toEqual(['Lena Leipzig']);
      await controlled(page);

      await context.setOffline(true);
      const reload = (await page.reload())!;
      expect(reload.fromServiceWorker()).toBe(true);
      await page.getByRole('heading', { level: 1, name: 'Nachsuchenführer in der Nähe' }).waitFor();
      await page.getByRole('alert').filter({ hasText: OFFLINE_TEXT }).waitFor();
      expect(await page.locator('.card').count()).toBe(0);
      // The form is there for a retry, styled (the stylesheet came from the worker too).
      await expect(page.getByRole('button', { name: 'Suchen' }).isVisible()).resolves.toBe(true);
      expect(
        await page.evaluate<string>(
          "getComputedStyle(document.querySelector('button[type=submit]')).minHeight",
        ),
      ).not.toBe('auto');

      // A page the worker does not keep is not there offline.
      await expect(page.goto(`${app.url}${PAGES_PREFIX}admin/`)).rejects.toThrow(
        /ERR_INTERNET_DISCONNECTED/,
      );

      // Back online, the search works again from the page the worker gave.
      await context.setOffline(false);
      await page.goto(`${app.url}${PAGES_PREFIX}`);
      expect(await cards(page)).toEqual(['Lena Leipzig']);
    } finally {
      await session.close();
    }
  });

  it('shows a new build on the load after the one that found it (the worker checks sw.js on every visit)', async () => {
    // A copy of the build served by the pages plugin alone, twice on one port (one origin, so
    // the worker and its cache stay): the build as it is, then a "new build" of it.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pages-new-build-'));
    cpSync(PAGES_DIR, dir, { recursive: true });
    // When the worker's script was asked for, and what it got (the version in its CACHE name).
    const checks: string[] = [];
    const serve = async (port = 0) => {
      const server = Fastify();
      server.addHook('onSend', async (request, reply, payload) => {
        if (request.url.endsWith('/sw.js')) {
          // The old build's answer is compressed: its encoding instead.
          const version =
            String(payload).match(/finder-[0-9a-f]{16}/)?.[0] ??
            String(reply.getHeader('content-encoding') ?? 'no body');
          checks.push(`${reply.statusCode} ${version} at ${new Date().toISOString()}`);
        }
        return payload;
      });
      await server.register(servePages(dir), { config: app.config, shared: undefined as never });
      await server.listen({ host: '127.0.0.1', port });
      return server;
    };
    let server = await serve();
    const { port } = server.server.address() as AddressInfo;
    const site = { ...app, url: `http://127.0.0.1:${port}` };
    const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
    // Position refused: no search (this server has no API).
    const session = await openPage(browser, site);
    const { page } = session;
    try {
      await controlled(page);
      const [first] = Object.keys(await cached(page));
      expect(await heading(page)).toBe('Nachsuchenführer in der Nähe');

      // The new build: another heading in the HTML, so another version in sw.js.
      await server.close();
      const edit = (file: string, from: string | RegExp, to: string) => {
        const text = readFileSync(path.join(dir, file), 'utf8');
        expect(text).toMatch(from);
        writeFileSync(path.join(dir, file), text.replace(from, to));
        rmSync(path.join(dir, `${file}.br`), { force: true });
        rmSync(path.join(dir, `${file}.gz`), { force: true });
      };
      edit('index.html', '<h1>Nachsuchenführer in der Nähe</h1>', '<h1>Neue Fassung</h1>');
      edit('sw.js', /finder-[0-9a-f]{16}/, 'finder-0123456789abcdef');
      server = await serve(port);

      // The next load still comes from the cache; after it Chromium checks sw.js (served
      // no-cache), and the new worker takes the new files in the background.
      const replaced = async () =>
        JSON.stringify(Object.keys(await cached(page))) === '["finder-0123456789abcdef"]';
      expect((await page.reload())!.fromServiceWorker()).toBe(true);
      expect(await heading(page)).toBe('Nachsuchenführer in der Nähe');
      if (!(await within(replaced, 15_000))) {
        // Chromium checks a second after the load. Twice (a CI run, a first local run) the
        // worker was not replaced within 30 s; about forty runs since, under load too, did not
        // repeat it. A user's next visit checks again, and so does the test, once, saying what
        // the server answered and where the workers stood.
        console.warn(
          `the new build was not taken after the first load; sw.js answers: ${checks.join('; ')}; workers: ${await workers(page)}; caches: ${JSON.stringify(await cached(page))}`,
        );
        expect((await page.reload())!.fromServiceWorker()).toBe(true);
        await until(replaced, 'the new worker to replace the old cache', 30_000);
      }
      expect(first).not.toBe('finder-0123456789abcdef');
      expect((await page.reload())!.fromServiceWorker()).toBe(true);
      expect(await heading(page)).toBe('Neue Fassung');
    } finally {
      await session.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
