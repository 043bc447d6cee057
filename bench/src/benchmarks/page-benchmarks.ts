// PAGES (issue 22): the handler directory's pages as a phone and an office screen get them, in
// Debian's Chromium driven by playwright-core (never a downloaded browser), launched as the pages'
// tests launch it (web-kit's launchChromium: the same flags), against the built service on
// loopback:
//   1. the finder's compressed size (index.html and every file it references, as
//      services/handler-directory/test/pages/budget.test.ts sums them), ≤ 50 kB;
//   2. the finder's time from navigation start to its first result card on Chrome DevTools'
//      Slow 3G profile, ≤ 2 s: cold (a fresh context), and warm (the same context again once the
//      finder's service worker, sw.js, controls it: the shell from its cache, the search only
//      from the network);
//   3. the admin list's time to show a search over the loaded handlers once its answer is in,
//      ≤ 100 ms.
// The times are taken in the page (performance.now(), whose origin is the navigation's start).
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '@dogshop/web-kit/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Context } from '../context.js';
import { generateHandlers } from '../datasets/handler-dataset.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  packageDir,
  type RunningService,
} from '../infra/services.js';
import type { FinderLoads, FinderSize, PagesRun } from '../results.js';
import { figure } from '../stats.js';
import { awaitPaint, paintWatch, timing, within, type Paint } from './list-paint.js';

const DIRECTORY_DIR = packageDir('@dogshop/handler-directory');

/** The built pages the service serves (services/handler-directory/src/plugins/pages.ts). */
const PAGES_DIR = path.join(DIRECTORY_DIR, 'dist', 'web');
const PAGES_PREFIX = '/verzeichnis/';

const FINDER_BUDGET_BYTES = 50_000;
const FIRST_RESULT_TARGET_MS = 2_000;
const ADMIN_SEARCH_TARGET_MS = 100;
/** Finder loads after one warm-up, each in a fresh browser context. */
const FINDER_RUNS = 7;
/** Admin searches after one warm-up, each for a term not searched before (no cached answer). */
const ADMIN_SEARCHES = 15;

/**
 * Chrome DevTools' "Slow 3G" preset (its menu now calls it "3G"): ~500 kbit/s each way × 0.8 and
 * a 400 ms round trip × 5, the adjustment factors DevTools applies because its throttling works
 * per request. Slow3GConditions in ChromeDevTools/devtools-frontend
 * front_end/core/sdk/NetworkManager.ts; Puppeteer's PredefinedNetworkConditions['Slow 3G'] has
 * the same numbers (Playwright has no presets of its own).
 */
export const SLOW_3G = {
  offline: false,
  latency: 400 * 5,
  downloadThroughput: ((500 * 1000) / 8) * 0.8,
  uploadThroughput: ((500 * 1000) / 8) * 0.8,
};

export async function pagesBench(
  ctx: Context,
  service: RunningService,
  handlers: number,
): Promise<PagesRun> {
  const loadAverageBefore = os.loadavg();
  const finderSize = measureFinderSize();
  ctx.log(
    `  finder: ${finderSize.brotli} B brotli, ${finderSize.gzip} B gzip (${finderSize.files.length} files)`,
  );
  const browser = await launchChromium();
  try {
    const firstResult = await finderFirstResult(ctx, browser, service);
    const adminSearch = await adminListSearch(ctx, browser, service, handlers);
    return {
      finderSize,
      firstResult,
      adminSearch,
      loadAverageBefore,
      loadAverageAfter: os.loadavg(),
    };
  } finally {
    await browser.close();
  }
}

/** Brotli and gzip twins (vite.config.ts writes them), or the file where none was worth it. */
function measureFinderSize(): FinderSize {
  const index = path.join(PAGES_DIR, 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `${index} is missing: build the pages (cd services/handler-directory && npx vite build)`,
    );
  }
  const html = readFileSync(index, 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  const size = (file: string) => statSync(path.join(PAGES_DIR, file)).size;
  const twin = (file: string, suffix: string) =>
    existsSync(path.join(PAGES_DIR, file + suffix)) ? size(file + suffix) : size(file);
  const files = ['index.html', ...referenced.map((url) => url.slice(PAGES_PREFIX.length))].map(
    (file) => ({ file, raw: size(file), gzip: twin(file, '.gz'), brotli: twin(file, '.br') }),
  );
  const total = (key: 'raw' | 'gzip' | 'brotli') => files.reduce((sum, f) => sum + f[key], 0);
  const [raw, gzip, brotli] = [total('raw'), total('gzip'), total('brotli')];
  const targetBytes = FINDER_BUDGET_BYTES;
  return {
    files,
    raw,
    gzip,
    brotli,
    targetBytes,
    pass: gzip <= targetBytes && brotli <= targetBytes,
  };
}

/**
 * Runs before any script of the page: resolves `window.__firstCard` with performance.now() when
 * the first result card is in the DOM, and the bytes received by then (Resource Timing's transfer
 * sizes).
 */
const FIRST_CARD_WATCH = `
  window.__firstCard = new Promise((resolve) => new MutationObserver((_, observer) => {
    if (!document.querySelector('.card')) return;
    observer.disconnect();
    const at = performance.now();
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ].filter((e) => e.responseEnd <= at);
    const api = entries.find((e) => e.name.includes('/api/public/users'));
    resolve({
      ms: at,
      documentMs: performance.getEntriesByType('navigation')[0].responseEnd,
      apiStartMs: api ? api.startTime : NaN,
      apiEndMs: api ? api.responseEnd : NaN,
      bytes: entries.reduce((sum, e) => sum + e.transferSize, 0),
      requests: entries.length,
      controlled: navigator.serviceWorker?.controller != null,
    });
  }).observe(document, { childList: true, subtree: true }));
`;

interface FirstCard {
  ms: number;
  documentMs: number;
  apiStartMs: number;
  apiEndMs: number;
  bytes: number;
  requests: number;
  controlled: boolean;
}

async function finderFirstResult(
  ctx: Context,
  browser: Browser,
  service: RunningService,
): Promise<PagesRun['firstResult']> {
  // Stand a phone near the first available handler with a position (the generator is seeded).
  const near = generateHandlers(50).find((h) => h.available && h.gps)!.gps!;
  const position = { latitude: near.lat + 0.01, longitude: near.lng + 0.01 };
  const runs: FirstCard[] = [];
  const warmRuns: FirstCard[] = [];
  /** A page of `context` on Slow 3G, at the finder; its first card. */
  const firstCard = async (context: BrowserContext, cold: boolean) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Cold: nothing from the HTTP cache. Warm: the browser's cache as a return visit has it.
    if (cold) await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    await page.goto(`${service.url}${PAGES_PREFIX}`, { waitUntil: 'commit', timeout: 60_000 });
    const card = await within(
      60_000,
      'the first result card',
      page.evaluate<FirstCard>('window.__firstCard'),
    );
    return { page, card };
  };
  for (let run = 0; run <= FINDER_RUNS; run += 1) {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      geolocation: position,
      permissions: ['geolocation'],
    });
    try {
      await context.addInitScript({ content: FIRST_CARD_WATCH });
      const { page, card } = await firstCard(context, true);
      // The worker registers after the load event and installs (precaches) in the background.
      const end = Date.now() + 60_000;
      while (!(await page.evaluate<boolean>('navigator.serviceWorker.controller !== null'))) {
        if (Date.now() > end) throw new Error('the finder’s service worker never took control');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await page.close();
      const { card: warm } = await firstCard(context, false);
      ctx.log(
        `    finder run ${run}${run === 0 ? ' (warm-up)' : ''}: first card after ${card.ms.toFixed(0)} ms, ${card.bytes} B; return visit ${warm.ms.toFixed(0)} ms, ${warm.bytes} B${warm.controlled ? '' : ' (no worker!)'}`,
      );
      if (run > 0) {
        runs.push(card);
        warmRuns.push(warm);
      }
    } finally {
      await context.close();
    }
  }
  const cold = finderLoads(runs);
  return {
    network: SLOW_3G,
    ...cold,
    targetMs: FIRST_RESULT_TARGET_MS,
    pass: cold.ms.p95 <= FIRST_RESULT_TARGET_MS,
    warm: { ...finderLoads(warmRuns), controlled: warmRuns.filter((r) => r.controlled).length },
  };
}

/** The figures of a series of finder loads. */
function finderLoads(loads: FirstCard[]): FinderLoads {
  return {
    runs: loads.length,
    ms: timing(loads.map((r) => r.ms)),
    documentMs: figure(loads.map((r) => r.documentMs)),
    apiStartMs: figure(loads.map((r) => r.apiStartMs)),
    apiEndMs: figure(loads.map((r) => r.apiEndMs)),
    bytes: figure(loads.map((r) => r.bytes)),
    requests: figure(loads.map((r) => r.requests)),
  };
}

async function adminListSearch(
  ctx: Context,
  browser: Browser,
  service: RunningService,
  handlers: number,
): Promise<PagesRun['adminSearch']> {
  // Every first and last name of the generated set: each matches hundreds of handlers.
  const terms = [
    ...new Set(generateHandlers(handlers).flatMap((h) => h.name.split(' ').slice(0, 2))),
  ].slice(0, ADMIN_SEARCHES + 1);
  if (terms.length < ADMIN_SEARCHES + 1) throw new Error('too few distinct names to search for');
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  try {
    const page = await context.newPage();
    await page.goto(`${service.url}${PAGES_PREFIX}admin/`);
    await page.getByLabel('Benutzername').fill(ADMIN_USERNAME);
    await page.getByLabel('Passwort', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.locator('.handlers tbody tr').first().waitFor({ timeout: 30_000 });
    const search = page.getByLabel('Suche (Name, Telefon, Adresse)');
    const runs: Paint[] = [];
    for (const [i, term] of terms.entries()) {
      await page.evaluate(paintWatch('.handlers', '/api/users?'));
      await search.fill(term);
      const result = await awaitPaint(page, 30_000, `the search for "${term}"`);
      ctx.log(
        `    search ${i}${i === 0 ? ' (warm-up)' : ''} "${term}": ${result.rows} rows; after the answer: DOM ${result.domMs.toFixed(1)} ms, frame ${result.frameMs.toFixed(1)} ms, rendered ${result.paintedMs.toFixed(1)} ms`,
      );
      if (i > 0) runs.push(result);
    }
    const paintedMs = timing(runs.map((r) => r.paintedMs));
    return {
      handlers,
      searches: runs.length,
      terms: terms.slice(1),
      domMs: timing(runs.map((r) => r.domMs)),
      frameMs: timing(runs.map((r) => r.frameMs)),
      paintedMs,
      encodedBytes: figure(runs.map((r) => r.encodedBytes)),
      decodedBytes: figure(runs.map((r) => r.decodedBytes)),
      rows: figure(runs.map((r) => r.rows)),
      targetMs: ADMIN_SEARCH_TARGET_MS,
      pass: paintedMs.p95 <= ADMIN_SEARCH_TARGET_MS,
    };
  } finally {
    await context.close();
  }
}
