// The admin app's handler section (web/admin/handlers.tsx) in real headless Chromium against the
// real app on 127.0.0.1: search, filters and sort; the availability switch; creating a handler by
// a click on the map (latitude and longitude not swapped); editing; deleting after a
// confirmation; the export of a filter as CSV, XLSX and JSON; a viewer who gets no write control
// and whose forced write is refused; a name that looks like HTML; a phone's width; map tiles from
// a tile server on loopback. Every page checks on closing that no request left the app's origin,
// the CSP blocked nothing and no script failed (browser.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Handler } from '@dogshop/contracts/handler-directory';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, createTestApp, VIEWER } from '../support/app.js';
import { createHandler } from '../support/handlers.js';
import { loadWorkbook } from '../support/xlsx.js';
import {
  downloadedBytes,
  focusRing,
  launchChromium,
  lowContrastTexts,
  namelessButtons,
  openPage,
  PHONE_VIEWPORT,
  saveScreenshot,
  serveApp,
  signIn,
  unlabelledControls,
  type OpenOptions,
  type PageSession,
  type ServedApp,
} from './browser.js';

// A browser and the app share two cores with the rest of the test run.
jest.setTimeout(90_000);

const ADMIN_APP = '/verzeichnis/admin/';
/** Where the map starts for a record without a position (position-map.tsx). */
const GERMANY = { lat: 51.16, lng: 10.45, zoom: 6 };

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
  await createHandler(app, {
    name: 'Anna Müller',
    phone: '+49 5191 987654',
    address: 'Am Forsthaus 5, 29614 Soltau',
    type: 'SW',
    gps: { lat: 52.9866, lng: 9.8429 },
  });
  await createHandler(app, { name: 'Bernd Schulze', phone: '030 1234', available: false });
  await createHandler(app, { name: 'Carla Groß', phone: '089 5566', type: 'BGS' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function getHandler(id: string) {
  return app.request({ method: 'GET', url: `/api/users/${id}`, as: app.admin });
}

async function apiList(query: string): Promise<Handler[]> {
  const res = await app.request({ method: 'GET', url: `/api/users?${query}`, as: app.admin });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Handler[] }>().data;
}

/** Opens the admin app, signs in and waits for the first list. */
async function withAdminApp(
  options: OpenOptions & { as?: { username: string; password: string } },
  test: (session: PageSession) => Promise<void>,
  served: ServedApp = app,
): Promise<void> {
  const session = await openPage(browser, served, {
    path: ADMIN_APP,
    device: 'desktop',
    ...options,
  });
  try {
    const account = options.as ?? ADMIN;
    await signIn(session.page, account.username, account.password);
    await listShown(session.page);
    await test(session);
  } finally {
    await session.close();
  }
}

/** Waits until the list's live region reports a result (not loading). */
async function listShown(page: Page, count?: number): Promise<void> {
  // Anchored: "1 Hundeführer gefunden" must not match "11 Hundeführer gefunden".
  const text =
    count === undefined
      ? /^\d+ Hundeführer (gefunden|angezeigt)/
      : new RegExp(`^${count} Hundeführer gefunden`);
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 20_000 });
}

/** The names in the list, in order. */
const shownNames = (page: Page) => page.locator('.handler-table tbody .name').allTextContents();

/** The web Mercator point of a position (world pixels at `zoom`, as Leaflet projects it). */
function worldPixel(lat: number, lng: number, zoom: number) {
  const scale = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return {
    x: (scale * (lng + 180)) / 360,
    y: scale * (0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI)),
  };
}

function positionOfPixel(x: number, y: number, zoom: number) {
  const scale = 256 * 2 ** zoom;
  const lng = (x / scale) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / scale))) * 180) / Math.PI;
  return { lat, lng };
}

/**
 * Waits until `check` holds, asking every 50 ms. Not `page.waitForFunction`: it evaluates its
 * predicate in the page with eval, which the pages' CSP refuses (and close() reports).
 */
async function until(check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in ${timeout} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the input with this label has a value (the map's click filled it). */
const filled = (page: Page, label: string) =>
  until(async () => (await page.getByLabel(label).inputValue()) !== '');

/**
 * Where the map's marker is, in whole pixels from the map's centre (x east, y south), computed in
 * the page.
 */
const markerOffsetScript = `() => {
  const map = document.querySelector('.position-map').getBoundingClientRect();
  const dot = document.querySelector('.position-map .leaflet-overlay-pane path');
  if (!dot) return { x: NaN, y: NaN };
  const box = dot.getBoundingClientRect();
  return {
    x: Math.round(box.left + box.width / 2 - (map.left + map.width / 2)),
    y: Math.round(box.top + box.height / 2 - (map.top + map.height / 2)),
  };
}`;
const markerOffset = (page: Page) =>
  page.evaluate<{ x: number; y: number }>(`(${markerOffsetScript})()`);

const coordinate = (text: string) => Number(text.replace(',', '.'));

describe('the handler list', () => {
  it('searches ignoring umlauts, filters by availability and type, sorts by last change', async () => {
    await withAdminApp({}, async ({ page }) => {
      expect(await shownNames(page)).toEqual(['Anna Müller', 'Bernd Schulze', 'Carla Groß']);
      const anna = page.getByRole('row', { name: /Anna Müller/ });
      await expect(anna.getByText('+49 5191 987654').isVisible()).resolves.toBe(true);
      await expect(anna.getByText('52,9866° N, 9,8429° O').isVisible()).resolves.toBe(true);
      await expect(anna.getByText('verfügbar', { exact: true }).isVisible()).resolves.toBe(true);
      await saveScreenshot(page, 'admin-desktop');

      // "muller" finds "Müller" (the API folds umlauts), typed without pressing a button.
      await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('muller');
      await listShown(page, 1);
      expect(await shownNames(page)).toEqual(['Anna Müller']);
      await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('');
      await listShown(page, 3);

      await page.getByLabel('Verfügbarkeit').selectOption({ label: 'nicht verfügbar' });
      await listShown(page, 1);
      expect(await shownNames(page)).toEqual(['Bernd Schulze']);
      await page.getByLabel('Verfügbarkeit').selectOption({ label: 'verfügbar' });
      await listShown(page, 2);
      expect(await shownNames(page)).toEqual(['Anna Müller', 'Carla Groß']);
      await page.getByLabel('Typ').fill('BGS');
      await listShown(page, 1);
      expect(await shownNames(page)).toEqual(['Carla Groß']);
      await page.getByLabel('Typ').fill('');
      await page.getByLabel('Verfügbarkeit').selectOption({ label: 'alle' });
      await listShown(page, 3);

      // The last changed first: Bernd, changed through the API just now.
      const [bernd] = await apiList('q=Schulze');
      const res = await app.request({
        method: 'PUT',
        url: `/api/users/${bernd!._id}`,
        payload: { phone: '030 4321' },
        as: app.admin,
      });
      expect(res.statusCode).toBe(200);
      await page.getByLabel('Sortierung').selectOption({ label: 'letzte Änderung zuerst' });
      await page.getByRole('row', { name: /030 4321/ }).waitFor();
      expect((await shownNames(page))[0]).toBe('Bernd Schulze');
      const expected = (await apiList('sort=updatedAt')).map((h) => h.name);
      expect(await shownNames(page)).toEqual(expected);
    });
  });
});

describe('writing as an admin', () => {
  it('switches availability in the row (the API confirms), shows the API’s message when it fails, and opens the history', async () => {
    const dora = await createHandler(app, { name: 'Dora Schalter' });
    const emil = await createHandler(app, { name: 'Emil Entfernt' });
    await withAdminApp({}, async ({ page }) => {
      const toggle = page.getByRole('switch', { name: 'verfügbar – Dora Schalter' });
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await toggle.click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Dora Schalter ist jetzt nicht verfügbar.' })
        .waitFor();
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      const row = page.getByRole('row', { name: /Dora Schalter/ });
      await expect(row.getByText('nicht verfügbar').isVisible()).resolves.toBe(true);
      expect((await getHandler(dora._id)).json<{ data: Handler }>().data.available).toBe(false);

      await toggle.click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Dora Schalter ist jetzt verfügbar.' })
        .waitFor();
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      expect((await getHandler(dora._id)).json<{ data: Handler }>().data.available).toBe(true);

      // Deleted by someone else meanwhile: the API's message, as it comes.
      const res = await app.request({
        method: 'DELETE',
        url: `/api/users/${emil._id}`,
        as: app.admin,
      });
      expect(res.statusCode).toBe(200);
      await page.getByRole('switch', { name: 'verfügbar – Emil Entfernt' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'Emil Entfernt: Hundeführer nicht gefunden',
      );

      await page.getByRole('button', { name: 'Verlauf von Dora Schalter' }).click();
      const history = page.getByRole('dialog', { name: 'Verlauf von Dora Schalter' });
      await history.waitFor();
      await history.getByRole('button', { name: 'Schließen' }).click();
      await history.waitFor({ state: 'detached' });
    });
  });

  it('creates a handler by a click on the map without tiles: the stored position is the clicked point, north-east stays north-east; a refused name is said beside the field in words, not as the API’s path', async () => {
    await withAdminApp({}, async ({ page }) => {
      await page.getByRole('button', { name: 'Neuer Hundeführer' }).click();
      await page.getByRole('heading', { name: 'Neuer Hundeführer' }).waitFor();
      await page.getByText('kein Kartendienst eingerichtet').waitFor();
      // A name of spaces passes the browser's `required` but not the API: a sentence about the
      // name beside it, never the API's path and rule; the focus stays on the button.
      const name = page.getByLabel('Name', { exact: true });
      await name.fill('   ');
      await page.getByLabel('Telefon').fill('0170 1112223');
      await page.getByRole('button', { name: 'Speichern' }).click();
      const said = page.getByRole('alert').filter({ hasText: 'Bitte einen Namen eingeben' });
      await expect(said.textContent()).resolves.toBe(
        'Bitte einen Namen eingeben (1 bis 200 Zeichen).',
      );
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await name.getAttribute('aria-describedby')).toBe(await said.getAttribute('id'));
      // Beside it: right below the name's input.
      const [input, message] = await Promise.all([name.boundingBox(), said.boundingBox()]);
      expect(Math.abs(message!.y - (input!.y + input!.height))).toBeLessThan(24);
      expect(await page.locator('body').innerText()).not.toMatch(/body\.name|Ungültige Anfrage/);
      expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Speichern');
      await name.fill('Fritz Karte');
      await said.waitFor({ state: 'detached' });
      expect(await name.getAttribute('aria-invalid')).toBeNull();

      // A click in the north-east quarter of the map (centred on Germany at zoom 6).
      const map = page.getByRole('region', { name: 'Karte: ein Klick setzt die Position' });
      const [width, height] = await map.evaluate((el) => [el.clientWidth, el.clientHeight]);
      const at = { x: Math.round(width * 0.75), y: Math.round(height * 0.25) };
      await map.click({ position: at });
      const latInput = page.getByLabel('Breitengrad (Nord/Süd)');
      await filled(page, 'Breitengrad (Nord/Süd)');
      const lat = coordinate(await latInput.inputValue());
      const lng = coordinate(await page.getByLabel('Längengrad (Ost/West)').inputValue());
      expect(lat).toBeGreaterThan(GERMANY.lat);
      expect(lng).toBeGreaterThan(GERMANY.lng);
      const centre = worldPixel(GERMANY.lat, GERMANY.lng, GERMANY.zoom);
      const expected = positionOfPixel(
        centre.x + at.x - width! / 2,
        centre.y + at.y - height! / 2,
        GERMANY.zoom,
      );
      expect(Math.abs(lat - expected.lat)).toBeLessThan(0.05);
      expect(Math.abs(lng - expected.lng)).toBeLessThan(0.05);
      await saveScreenshot(page, 'admin-editor-desktop');

      await page.getByRole('button', { name: 'Speichern' }).click();
      await page.getByRole('status').filter({ hasText: 'Fritz Karte ist angelegt.' }).waitFor();
      const [stored] = await apiList('q=Fritz%20Karte');
      expect(stored).toMatchObject({ name: 'Fritz Karte', phone: '0170 1112223', available: true });
      expect(stored!.gps).toEqual({ lat, lng });
    });
  });

  it('edits a handler: the new name and typed coordinates are stored; a wrong coordinate is named', async () => {
    const gustav = await createHandler(app, { name: 'Gustav Alt', gps: { lat: 48.1, lng: 11.5 } });
    await withAdminApp({}, async ({ page }) => {
      await page.getByRole('button', { name: 'Bearbeiten: Gustav Alt' }).click();
      await page.getByRole('heading', { name: 'Gustav Alt bearbeiten' }).waitFor();
      const name = page.getByLabel('Name', { exact: true });
      expect(await name.inputValue()).toBe('Gustav Alt');
      expect(await page.getByLabel('Breitengrad (Nord/Süd)').inputValue()).toBe('48,1');
      expect(await page.getByLabel('Längengrad (Ost/West)').inputValue()).toBe('11,5');
      await name.fill('Gustav Neu');

      // A typed longitude moves the marker: 0.1° east at zoom 11 is 145.6 px right of the centre
      // (the record's position, where the map opened).
      expect(await markerOffset(page)).toEqual({ x: 0, y: 0 });
      await page.getByLabel('Längengrad (Ost/West)').fill('11,6');
      await until(async () => (await markerOffset(page)).x > 100);
      const moved = await markerOffset(page);
      expect(Math.abs(moved.x - (0.1 / 360) * 256 * 2 ** 11)).toBeLessThan(2);
      expect(moved.y).toBe(0);

      // Typed by keyboard: a latitude out of range is refused before anything is sent.
      await page.getByLabel('Breitengrad (Nord/Süd)').fill('95');
      await page.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('Breitengrad');
      expect(await page.evaluate<string>('document.activeElement.id')).toBe('feld-breite');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('53,55');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('9.99');
      await page.getByText('Gewählt: 53,55° N, 9,99° O').waitFor();
      // Typed far outside the view (Hamburg, from Munich at zoom 11): the map follows, so the
      // marker is in view.
      const map = page.getByRole('region', { name: 'Karte: ein Klick setzt die Position' });
      const [width, height] = await map.evaluate((el) => [el.clientWidth, el.clientHeight]);
      const inView = ({ x, y }: { x: number; y: number }) =>
        Math.abs(x) < width! / 2 && Math.abs(y) < height! / 2;
      await until(async () => inView(await markerOffset(page)));
      await page.keyboard.press('Enter');

      await page
        .getByRole('status')
        .filter({ hasText: 'Änderungen an Gustav Neu gespeichert.' })
        .waitFor();
      await page.getByRole('row', { name: /Gustav Neu/ }).waitFor();
      const stored = (await getHandler(gustav._id)).json<{ data: Handler }>().data;
      expect(stored.name).toBe('Gustav Neu');
      expect(stored.gps).toEqual({ lat: 53.55, lng: 9.99 });
    });
  });

  it('deletes a handler only after the confirmation (Escape keeps it)', async () => {
    const hilde = await createHandler(app, { name: 'Hilde Weg' });
    await withAdminApp({}, async ({ page }) => {
      const remove = page.getByRole('button', { name: 'Löschen: Hilde Weg' });
      await remove.click();
      const dialog = page.getByRole('dialog', { name: 'Hilde Weg löschen?' });
      await dialog.waitFor();
      // The safe choice has the focus; Escape closes and keeps the handler.
      expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Abbrechen');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await getHandler(hilde._id)).statusCode).toBe(200);
      expect(await page.evaluate<string>('document.activeElement.textContent')).toContain(
        'Löschen',
      );

      await remove.click();
      await dialog.getByRole('button', { name: 'Endgültig löschen' }).click();
      await page.getByRole('status').filter({ hasText: 'Hilde Weg ist gelöscht.' }).waitFor();
      await expect(page.getByRole('row', { name: /Hilde Weg/ }).count()).resolves.toBe(0);
      expect((await getHandler(hilde._id)).statusCode).toBe(404);
    });
  });

  it('exports the filtered list as CSV, XLSX and JSON, fetched with the token', async () => {
    await createHandler(app, { name: 'Ida Export', type: 'EXP' });
    await createHandler(app, { name: 'Jan Export', type: 'EXP' });
    await createHandler(app, { name: 'Kai Export', type: 'EXP', available: false });
    await withAdminApp({}, async ({ page }) => {
      await page.getByLabel('Typ').fill('EXP');
      await page.getByLabel('Verfügbarkeit').selectOption({ label: 'verfügbar' });
      await listShown(page, 2);
      const expected = ['Ida Export', 'Jan Export'];

      const download = async (button: string): Promise<{ name: string; body: Buffer }> => {
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: button }).click(),
        ]);
        return { name: file.suggestedFilename(), body: await downloadedBytes(file) };
      };

      const csv = await download('CSV');
      expect(csv.name).toMatch(/^handlers-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = csv.body
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean);
      expect(lines[0]).toMatch(/^id,name,/);
      expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(expected);
      await page
        .getByRole('status')
        .filter({ hasText: `Export gespeichert: ${csv.name}` })
        .waitFor();

      const xlsx = await download('XLSX (Excel)');
      expect(xlsx.name).toMatch(/^handlers-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const sheet = (await loadWorkbook(xlsx.body)).worksheets[0]!;
      const names: unknown[] = [];
      sheet.eachRow((row, n) => n > 1 && names.push(row.getCell(2).value));
      expect(names).toEqual(expected);

      const json = await download('JSON');
      expect(json.name).toMatch(/^hundefuehrer-\d{4}-\d{2}-\d{2}\.json$/);
      const body = JSON.parse(json.body.toString('utf8')) as { count: number; data: Handler[] };
      expect(body.count).toBe(2);
      expect(body.data.map((h) => h.name)).toEqual(expected);
    });
  });
});

describe('reading as a viewer', () => {
  it('shows no write control, and a write forced from the console is refused (403) and changes nothing', async () => {
    const lena = await createHandler(app, { name: 'Lena Lesen' });
    await withAdminApp({ as: VIEWER }, async ({ page }) => {
      await page.getByRole('row', { name: /Lena Lesen/ }).waitFor();
      await expect(
        page.getByRole('button', { name: 'Verlauf von Lena Lesen' }).count(),
      ).resolves.toBe(1);
      await expect(page.getByRole('switch').count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Neuer Hundeführer' }).count()).resolves.toBe(
        0,
      );
      await expect(page.getByRole('button', { name: /^Bearbeiten/ }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: /^Löschen/ }).count()).resolves.toBe(0);
      await expect(
        page
          .getByRole('row', { name: /Lena Lesen/ })
          .getByText('verfügbar', { exact: true })
          .count(),
      ).resolves.toBe(1);

      const token = await app.login(VIEWER.username, VIEWER.password);
      const statuses = await page.evaluate(
        async ([id, bearer]) => {
          const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
          const removed = await fetch(`/api/users/${id}`, { method: 'DELETE', headers });
          const switched = await fetch(`/api/users/${id}/availability`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ available: false }),
          });
          return [removed.status, switched.status];
        },
        [lena._id, token] as const,
      );
      expect(statuses).toEqual([403, 403]);
      const stored = await getHandler(lena._id);
      expect(stored.statusCode).toBe(200);
      expect(stored.json<{ data: Handler }>().data).toEqual(lena);
    });
  });
});

describe('accessibility', () => {
  it('labels every control, names every button, works by keyboard with a focus ring, and keeps text contrast ≥ 4.5:1 in the light and the dark scheme', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await withAdminApp({ colorScheme }, async ({ page }) => {
        await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('Anna');
        await listShown(page, 1);
        expect(await lowContrastTexts(page)).toEqual([]);
        if (colorScheme === 'light') {
          expect(await unlabelledControls(page)).toEqual([]);
          expect(await namelessButtons(page)).toEqual([]);
          // From the search field by Tab to the switch; Space switches it.
          const toggle = page.getByRole('switch', { name: 'verfügbar – Anna Müller' });
          for (let i = 0; i < 10; i += 1) {
            await page.keyboard.press('Tab');
            if (await toggle.evaluate((el) => el === el.ownerDocument.activeElement)) break;
          }
          await expect(
            toggle.evaluate((el) => el === el.ownerDocument.activeElement),
          ).resolves.toBe(true);
          expect(await focusRing(page)).toEqual({ style: 'solid', width: 3 });
          await page.keyboard.press('Space');
          await page
            .getByRole('status')
            .filter({ hasText: 'Anna Müller ist jetzt nicht verfügbar.' })
            .waitFor();
          await page.keyboard.press('Space');
          await page
            .getByRole('status')
            .filter({ hasText: 'Anna Müller ist jetzt verfügbar.' })
            .waitFor();
        }

        await page.getByRole('button', { name: 'Bearbeiten: Anna Müller' }).click();
        await page.getByRole('heading', { name: 'Anna Müller bearbeiten' }).waitFor();
        expect(await lowContrastTexts(page)).toEqual([]);
        expect(await unlabelledControls(page)).toEqual([]);
        expect(await namelessButtons(page)).toEqual([]);
        await page.getByRole('button', { name: 'Abbrechen' }).click();
        await listShown(page, 1);
      });
    }
  });
});

describe('text from the database, a phone, and map tiles', () => {
  it('shows a name that looks like HTML as its characters in the list, the editor and the dialog; nothing runs', async () => {
    const name = '<img src=x onerror=alert(1)>';
    await createHandler(app, { name, address: '<b>fett</b>' });
    await withAdminApp({}, async ({ page, dialogs, requests }) => {
      await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('onerror');
      await listShown(page, 1);
      expect(await shownNames(page)).toEqual([name]);
      await expect(page.getByText('<b>fett</b>').isVisible()).resolves.toBe(true);
      await expect(page.locator('.handler-table img, .handler-table b').count()).resolves.toBe(0);

      await page.getByRole('button', { name: `Bearbeiten: ${name}` }).click();
      await page.getByRole('heading', { name: `${name} bearbeiten` }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
      expect(await page.getByLabel('Adresse').inputValue()).toBe('<b>fett</b>');
      await page.getByRole('button', { name: 'Abbrechen' }).click();

      await page.getByRole('button', { name: `Löschen: ${name}` }).click();
      await page.getByRole('dialog', { name: `${name} löschen?` }).waitFor();
      await page.keyboard.press('Escape');

      expect(dialogs).toEqual([]);
      expect(requests.filter((url) => /\/x$/.test(url))).toEqual([]);
      await expect(page.locator('main img').count()).resolves.toBe(0);
    });
  });

  it('is usable at 360×740: the list as cards and the editor, nothing wider than the screen', async () => {
    await withAdminApp({ device: 'phone' }, async ({ page }) => {
      const pageWidth = () => page.evaluate<number>('document.documentElement.scrollWidth');
      await page.getByRole('switch', { name: 'verfügbar – Anna Müller' }).waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      await saveScreenshot(page, 'admin-phone');

      await page.getByRole('button', { name: 'Neuer Hundeführer' }).click();
      await page.getByRole('heading', { name: 'Neuer Hundeführer' }).waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      await page.getByLabel('Name', { exact: true }).fill('Mara Mobil');
      await page.getByLabel('Telefon').fill('0171 999');
      const map = page.getByRole('region', { name: 'Karte: ein Klick setzt die Position' });
      const box = await map.boundingBox();
      expect(box!.width).toBeGreaterThan(280);
      await map.tap({ position: { x: box!.width / 2, y: box!.height / 2 } });
      await filled(page, 'Breitengrad (Nord/Süd)');
      await saveScreenshot(page, 'admin-editor-phone');
      await page.getByRole('button', { name: 'Speichern' }).click();
      await page.getByRole('status').filter({ hasText: 'Mara Mobil ist angelegt.' }).waitFor();
      const [stored] = await apiList('q=Mara%20Mobil');
      expect(stored!.gps).toBeDefined();
    });
  });

  it('loads map tiles from the configured tile server (here on loopback), with no CSP violation', async () => {
    const tile = tilePng();
    const tileRequests: string[] = [];
    const tiles: Server = createServer((request, response) => {
      tileRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      response.end(tile);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
    const t = await createTestApp({
      mapTiles: {
        url: `${tileOrigin}/{z}/{x}/{y}.png`,
        attribution: 'Testkacheln <b>fett</b> & Co',
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const served = {
      ...t,
      url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
    };
    const s = await openPage(browser, served, { path: ADMIN_APP, device: 'desktop' });
    try {
      expect(s.response.headers()['content-security-policy']).toContain(
        `img-src 'self' ${tileOrigin}`,
      );
      await signIn(s.page, ADMIN.username, ADMIN.password);
      await listShown(s.page, 0);
      await s.page.getByRole('button', { name: 'Neuer Hundeführer' }).click();
      await s.page.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 20_000 });
      await expect(s.page.getByText('kein Kartendienst eingerichtet').count()).resolves.toBe(0);
      // The attribution is shown as text, whatever characters it holds.
      await expect(s.page.locator('.leaflet-control-attribution').textContent()).resolves.toContain(
        'Testkacheln <b>fett</b> & Co',
      );
    } finally {
      // Not s.close(): that check allows the app's origin only; this page also asks the tile host.
      await s.context.close();
      await t.close();
      await new Promise((resolve) => tiles.close(resolve));
    }
    const offOrigin = s.requests.filter((url) => !url.startsWith(`${served.url}/`));
    expect(offOrigin.length).toBeGreaterThan(0);
    for (const url of offOrigin)
      expect(url).toMatch(new RegExp(`^${tileOrigin}/6/\\d+/\\d+\\.png$`));
    expect(tileRequests.length).toBe(offOrigin.length);
    expect(s.problems).toEqual([]);
  });
});

describe('paging (last: it adds 50 handlers)', () => {
  it('shows 50 at a time; "Weitere laden" adds the rest in order', async () => {
    for (let i = 0; i < 50; i += 1) {
      await createHandler(app, { name: `Zora Seite ${String(i).padStart(2, '0')}` });
    }
    const all = (await apiList('')).map((h) => h.name);
    expect(all.length).toBeGreaterThan(50);
    await withAdminApp({}, async ({ page }) => {
      await page.getByText('50 Hundeführer angezeigt, weitere vorhanden.').waitFor();
      expect(await shownNames(page)).toEqual(all.slice(0, 50));
      await page.getByRole('button', { name: 'Weitere laden' }).click();
      await listShown(page, all.length);
      expect(await shownNames(page)).toEqual(all);
      await expect(page.getByRole('button', { name: 'Weitere laden' }).count()).resolves.toBe(0);
    });
  });
});

/** A grey 256×256 PNG (8-bit greyscale), the tile server's answer to every path. */
function tilePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header[8] = 8; // bit depth; colour type 0 (grey), no interlace
  const rows = Buffer.alloc(256 * 257, 0xc8);
  for (let y = 0; y < 256; y += 1) rows[y * 257] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
