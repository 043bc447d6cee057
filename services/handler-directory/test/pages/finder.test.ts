// The finder ("Nachsuchenführer in der Nähe") in real headless Chromium at 360×740, against the
// real app listening on 127.0.0.1: the position granted or refused, typed coordinates, an
// availability that ends, text from the database that looks like HTML, keyboard use, labels,
// contrast, and the bytes a phone receives. Every page checks on closing that no request left
// the app's origin, that the CSP blocked nothing and that no script failed (browser.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { sleep } from '@dogshop/child-processes';
import { pagesContentSecurityPolicy, PAGES_PREFIX } from '../../src/plugins/pages.js';
import { createHandler } from '../support/handlers.js';
import {
  PHONE_VIEWPORT,
  focusRing,
  launchChromium,
  lowContrastTexts,
  namelessButtons,
  openPage,
  saveScreenshot,
  serveApp,
  unlabelledControls,
  type PageSession,
  type ServedApp,
} from './browser.js';

const MUNICH = { latitude: 48.1372, longitude: 11.5756 };
const HAMBURG = { latitude: 53.55, longitude: 9.99 };
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const COLOGNE = { latitude: 50.94, longitude: 6.96 };
const at = ({ latitude, longitude }: { latitude: number; longitude: number }) => ({
  lat: latitude,
  lng: longitude,
});

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
  // Munich: the nearest, one farther, one not available, one without a position.
  await createHandler(app, {
    name: 'Anna Nahe',
    phone: '+49 89 123 45-67',
    type: 'BGS',
    gps: { lat: 48.15, lng: 11.58 },
  });
  await createHandler(app, {
    name: 'Bernd Weiter',
    phone: '08122 5566',
    gps: { lat: 48.4, lng: 11.75 },
  });
  await createHandler(app, { name: 'Dieter Pause', available: false, gps: at(MUNICH) });
  await createHandler(app, { name: 'Clara Ohne Ort' });
  await createHandler(app, { name: 'Hanna Hamburg', type: 'HS', gps: { lat: 53.56, lng: 10.0 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The handlers' names on the page, in order, once the results are shown. */
async function cardNames(page: Page): Promise<string[]> {
  await page.getByRole('heading', { level: 2, name: /verfügbar/i }).waitFor();
  return page.locator('.card h3').allTextContents();
}

/** The API's answer for a point, as the page asks for it. */
async function publicList(query: string) {
  const res = await app.request({ method: 'GET', url: `/api/public/users?${query}&limit=20` });
  return res.json<{ data: Array<{ name: string; distance_km: number }>; message?: string }>();
}

const germanKm = (km: number) =>
  `${new Intl.NumberFormat('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(km)} km`;

async function withPage(
  options: Parameters<typeof openPage>[2],
  test: (session: PageSession) => Promise<void>,
): Promise<void> {
  const session = await openPage(browser, app, options);
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

describe('the finder at 360×740', () => {
  it('with the position granted near a handler: that handler first, with its distance, a tel: and an sms: link', async () => {
    await withPage({ position: MUNICH }, async ({ page, response }) => {
      expect(response.status()).toBe(200);
      expect(response.headers()['content-security-policy']).toBe(pagesContentSecurityPolicy());
      expect(await page.title()).toBe('Nachsuchenführer in der Nähe');

      expect(await cardNames(page)).toEqual(
        expect.arrayContaining(['Anna Nahe', 'Bernd Weiter', 'Hanna Hamburg']),
      );
      const names = await cardNames(page);
      expect(names.slice(0, 2)).toEqual(['Anna Nahe', 'Bernd Weiter']);
      expect(names).not.toContain('Dieter Pause'); // not available
      expect(names).not.toContain('Clara Ohne Ort'); // no position

      const expected = await publicList('lat=48.1372&lng=11.5756');
      const first = page.locator('.card').first();
      expect(await first.locator('.distance').textContent()).toBe(
        germanKm(expected.data[0]!.distance_km),
      );
      expect(await first.locator('.distance').textContent()).toBe('1,5 km');
      await expect(first.getByText('Typ BGS').isVisible()).resolves.toBe(true);
      const call = first.getByRole('link', { name: /Anrufen/ });
      expect(await call.getAttribute('href')).toBe('tel:+49891234567');
      expect(await call.textContent()).toContain('+49 89 123 45-67');
      const sms = first.getByRole('link', { name: 'SMS schreiben an Anna Nahe' });
      expect(await sms.getAttribute('href')).toBe('sms:+49891234567');

      // Made for a thumb: the call button spans the card and is tall; nothing scrolls sideways.
      const box = (await call.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(48);
      expect(box.width).toBeGreaterThanOrEqual(280);
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(scrollWidth).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      await saveScreenshot(page, 'finder-phone');

      // A radius of 10 km leaves the one nearby.
      await page.getByLabel('Umkreis').selectOption('10');
      await page.getByText('im Umkreis von 10 km').waitFor();
      expect(await page.locator('.card h3').allTextContents()).toEqual(['Anna Nahe']);
    });
  });

  it('shows the same on a desktop screen, the cards in one readable column', async () => {
    await withPage({ position: MUNICH, device: 'desktop' }, async ({ page }) => {
      expect((await cardNames(page)).slice(0, 2)).toEqual(['Anna Nahe', 'Bernd Weiter']);
      const card = (await page.locator('.card').first().boundingBox())!;
      expect(card.width).toBeLessThanOrEqual(640);
      await saveScreenshot(page, 'finder-desktop');
    });
  });

  it('with the position refused: says so, and typed coordinates work, by keyboard alone', async () => {
    await withPage({}, async ({ page }) => {
      await page.getByText('Ihr Standort ist nicht freigegeben').waitFor();
      expect(await page.locator('.card').count()).toBe(0);

      // Tab to the latitude field; its focus ring shows.
      for (let i = 0; i < 20; i += 1) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate<string>('document.activeElement.id')) === 'breitengrad') break;
      }
      const latitude = page.getByLabel('Breitengrad');
      await expect(latitude.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(
        true,
      );
      expect(await focusRing(page)).toEqual({ style: 'solid', width: 3 });
      await page.keyboard.type(String(HAMBURG.latitude).replace('.', ',')); // 53,55
      await page.keyboard.press('Tab');
      await page.keyboard.type(String(HAMBURG.longitude).replace('.', ',')); // 9,99
      await page.keyboard.press('Enter');

      expect((await cardNames(page))[0]).toBe('Hanna Hamburg');
      expect(await page.getByText('eingegebene Koordinaten').count()).toBe(1);
      // Focus moves to the results, so the next Tab reaches the first call button.
      expect(await page.evaluate<string>('document.activeElement.id')).toBe('ergebnisse');
      await page.keyboard.press('Tab');
      expect(await page.evaluate<string>('document.activeElement.getAttribute("href")')).toMatch(
        /^tel:/,
      );
      expect(await focusRing(page)).toEqual({ style: 'solid', width: 3 });

      // Not a number: the page says so itself.
      await latitude.fill('Hamburg');
      await page.getByRole('button', { name: 'Suchen' }).click();
      await page.getByText('Bitte Breitengrad als Zahl eingeben, z. B. 52,52.').waitFor();
      expect(await latitude.getAttribute('aria-invalid')).toBe('true');

      // Out of range: the API's German message, as it comes.
      await latitude.fill('95');
      await page.getByRole('button', { name: 'Suchen' }).click();
      const { message } = await publicList('lat=95&lng=9.99');
      expect(message).toMatch(/^Ungültige Anfrage: /);
      await page.getByText(message!).waitFor();
      expect(await page.getByRole('alert').textContent()).toBe(message);
    });
  });

  it('no longer shows a handler after a reload once its availableUntil has passed', async () => {
    await createHandler(app, { name: 'Bleibt Berlin', gps: { lat: 52.53, lng: 13.41 } });
    const created = Date.now();
    await createHandler(app, {
      name: 'Geht Gleich',
      gps: { lat: 52.521, lng: 13.406 },
      // Far enough ahead for a loaded machine to show it once.
      availableUntil: new Date(created + 8_000).toISOString(),
    });
    await withPage({ position: BERLIN }, async ({ page }) => {
      expect((await cardNames(page)).slice(0, 2)).toEqual(['Geht Gleich', 'Bleibt Berlin']);
      expect(await page.locator('.card').first().locator('.until').textContent()).toMatch(
        /^verfügbar bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr$/,
      );

      await sleep(created + 9_000 - Date.now());
      // The service worker (sw.js) controls the page by now and gives the reload its files; the
      // search still goes to the network (finder-offline.test.ts covers the worker).
      expect(await page.evaluate<boolean>('navigator.serviceWorker.controller !== null')).toBe(
        true,
      );
      const search = page.waitForResponse((r) => r.url().includes('/api/public/users'));
      expect((await page.reload())?.fromServiceWorker()).toBe(true);
      expect((await search).fromServiceWorker()).toBe(false);
      const names = await cardNames(page);
      expect(names[0]).toBe('Bleibt Berlin');
      expect(names).not.toContain('Geht Gleich');
    });
  });

  it('shows a name that looks like HTML as those characters, and no dialog opens', async () => {
    const name = '<img src=x onerror=alert(1)>';
    await createHandler(app, {
      name,
      address: '<script>alert(2)</script>',
      type: '"><svg onload=alert(3)>',
      gps: { lat: 50.941, lng: 6.961 },
    });
    await withPage({ position: COLOGNE }, async ({ page, dialogs, requests }) => {
      expect((await cardNames(page))[0]).toBe(name);
      const card = page.locator('.card').first();
      expect(await card.locator('.address').textContent()).toBe('<script>alert(2)</script>');
      expect(await card.locator('.type').textContent()).toBe('Typ "><svg onload=alert(3)>');
      expect(await page.locator('#finder img, #finder svg, #finder script').count()).toBe(0);
      await page.waitForTimeout(500); // time for an image error or onload handler to fire
      expect(dialogs).toEqual([]);
      expect(requests.filter((url) => url.endsWith('/x'))).toEqual([]);
    });
  });

  it('is accessible: German, a label on every control, a name on every button and link, text contrast of at least 4.5:1', async () => {
    await withPage({ position: MUNICH }, async ({ page }) => {
      await cardNames(page);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await unlabelledControls(page)).toEqual([]);
      expect(await namelessButtons(page)).toEqual([]);
      // A position problem shown as a notice has its contrast checked too.
      const refused = await openPage(browser, app);
      try {
        await refused.page.getByText('Ihr Standort ist nicht freigegeben').waitFor();
        expect(await lowContrastTexts(refused.page)).toEqual([]);
      } finally {
        await refused.close();
      }
      expect(await lowContrastTexts(page)).toEqual([]);
    });
  });

  it('follows the phone’s dark scheme at night: a dark page, text contrast still at least 4.5:1', async () => {
    await withPage({ position: MUNICH, colorScheme: 'dark' }, async ({ page }) => {
      await cardNames(page);
      const background = await page.evaluate<string>(
        'getComputedStyle(document.body).backgroundColor',
      );
      const [r, g, b] = background.match(/\d+/g)!.map(Number);
      expect(Math.max(r!, g!, b!)).toBeLessThan(64);
      expect(await lowContrastTexts(page)).toEqual([]);
    });
    const refused = await openPage(browser, app, { colorScheme: 'dark' });
    try {
      await refused.page.getByText('Ihr Standort ist nicht freigegeben').waitFor();
      expect(await lowContrastTexts(refused.page)).toEqual([]);
    } finally {
      await refused.close();
    }
  });

  it('loads, as a phone receives it, in at most 50 kB: HTML, script, styles and icon, compressed', async () => {
    await withPage({}, async ({ page }) => {
      await page.getByText('Ihr Standort ist nicht freigegeben').waitFor();
      // What the browser received (encoded) and what it made of it (decoded), by Resource Timing.
      const loaded = await page.evaluate<
        Array<{ path: string; received: number; decoded: number }>
      >(
        `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
          .map((e) => ({ path: new URL(e.name).pathname, received: e.encodedBodySize, decoded: e.decodedBodySize }))`,
      );
      console.log(
        'the finder as the browser received it: ' +
          loaded.map((l) => `${l.path} ${l.received} B (${l.decoded} B decoded)`).join(', '),
      );
      // The page, its script (the entry and the chunks it shares with the other pages), its
      // stylesheet and the icon: nothing else.
      const paths = loaded.map((l) => l.path);
      expect(paths[0]).toBe(PAGES_PREFIX);
      expect(paths).toContain(`${PAGES_PREFIX}favicon.svg`);
      expect(paths.filter((p) => p.endsWith('.css'))).toHaveLength(1);
      expect(
        paths.filter((p) => /^\/verzeichnis\/assets\/finder-[\w-]+\.js$/.test(p)),
      ).toHaveLength(1);
      expect(
        paths.every(
          (p) =>
            p === PAGES_PREFIX ||
            /^\/verzeichnis\/(?:assets\/[\w-]+\.(?:js|css)|favicon\.svg)$/.test(p),
        ),
      ).toBe(true);
      for (const l of loaded) expect(l.received).toBeLessThan(l.decoded);
      expect(loaded.reduce((sum, l) => sum + l.received, 0)).toBeLessThanOrEqual(50_000);
    });
  });
});
