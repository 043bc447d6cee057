// The handler's own page ("Mein Eintrag", web/mein-eintrag/) in real headless Chromium at 360×740
// (Berlin time), against the real app on 127.0.0.1: each test makes a handler account through
// the API as the admin, sets its password through the set-password link and signs in. Then the
// availability reaches the finder and leaves it, a chosen date is saved as that Berlin time, the
// phone's position is stored, only the account's own record is shown or writable, text from the
// database stays text, the token stays in memory, and the switch and the ends work by keyboard.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { CreateHandlerBody, Handler } from '@dogshop/contracts/handler-directory';
import type { Browser, Page } from 'playwright-core';
import { createHandler } from '../support/handlers.js';
import { handlerAccount, setPassword, setPasswordPath } from './accounts.js';
import {
  PHONE_VIEWPORT,
  focusRing,
  launchChromium,
  lowContrastTexts,
  namelessButtons,
  openPage,
  saveScreenshot,
  serveApp,
  signIn,
  storedState,
  unlabelledControls,
  type OpenOptions,
  type PageSession,
  type ServedApp,
} from './browser.js';

// A browser and the app share two cores with the rest of the test run.
jest.setTimeout(90_000);

const HANDLER_PAGE = '/verzeichnis/mein-eintrag/';
const MUNICH = { latitude: 48.1372, longitude: 11.5756 };
const BERLIN_TIME = 'Europe/Berlin';

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

interface SignedIn extends PageSession {
  handler: Handler;
  username: string;
  password: string;
}

/**
 * A new handler (`record`) with a handler account made by the admin through the API; the page
 * opened through the account's set-password link, the password set there, and signed in.
 */
async function signedInHandler(
  record: Partial<CreateHandlerBody>,
  options: OpenOptions = {},
): Promise<SignedIn> {
  const username = `hf-${randomBytes(4).toString('hex')}`;
  const { handler, token } = await handlerAccount(app, username, record);
  const session = await openPage(browser, app, {
    ...options,
    path: setPasswordPath(HANDLER_PAGE, username, token),
  });
  const { page } = session;
  const password = `ein Satz als Passwort ${randomBytes(3).toString('hex')}`;
  await setPassword(page, password);
  await page.getByText('Das Passwort ist gesetzt').waitFor();
  await signIn(page, username, password);
  await page.getByRole('heading', { name: 'Verfügbarkeit' }).waitFor();
  return { ...session, handler, username, password };
}

async function stored(id: string): Promise<Handler> {
  const res = await app.request({ method: 'GET', url: `/api/users/${id}`, as: app.admin });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Handler }>().data;
}

/** The availability's live region, once it says `text`. */
async function stateSays(page: Page, text: string | RegExp) {
  const state = page.getByRole('status').filter({ hasText: text });
  await state.waitFor();
  return state.textContent();
}

/** `28.11.2026, 20:00 Uhr`: the finder's card's format, in Berlin time. */
const finderTime = (iso: string) =>
  `${new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: BERLIN_TIME }).format(new Date(iso))} Uhr`;

/** `2026-11-28 20:00`: an instant as Berlin's wall clock. */
const berlinClock = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: BERLIN_TIME,
  }).format(new Date(iso));

/** The instant when Berlin's wall clock shows `day` (`2026-11-28`) at `clock` (`22:30`). */
function berlinInstant(day: string, clock: string): Date {
  for (const hoursAhead of [1, 2]) {
    const instant = new Date(Date.parse(`${day}T${clock}:00Z`) - hoursAhead * 3_600_000);
    if (berlinClock(instant.toISOString()) === `${day} ${clock}`) return instant;
  }
  throw new Error(`no instant for ${day} ${clock} in Berlin`);
}

/** Sets the page's clock and lets it look at it (as when a phone wakes up). */
async function clockAt(page: Page, instant: Date) {
  await page.clock.setFixedTime(instant);
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
}

describe('the handler’s page at 360×740', () => {
  it('“verfügbar” for 2 hours lists him in the finder with “verfügbar bis …”; switched off, he is gone after a reload of the finder', async () => {
    const s = await signedInHandler({
      name: 'Hannes Hochsitz',
      available: false,
      gps: { lat: 48.14, lng: 11.58 },
    });
    const { page } = s;
    expect(s.response.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.title()).toBe('Mein Eintrag – Nachsuchenführer');
    await stateSays(page, 'Sie sind nicht verfügbar.');
    await page.getByText('Die Öffentlichkeit sieht Sie gerade nicht').waitFor();

    // One large switch a thumb can hit, and nothing scrolls sideways.
    const toggle = page.getByRole('switch', { name: 'verfügbar' });
    const row = page.locator('label.switch');
    expect((await toggle.boundingBox())?.height).toBeGreaterThanOrEqual(48);
    expect((await row.boundingBox())?.width).toBeGreaterThanOrEqual(280);

    await toggle.click();
    const twoHours = page.getByRole('radio', { name: /^2 Stunden/ });
    expect(
      (await page.locator('label.choice').first().boundingBox())?.height,
    ).toBeGreaterThanOrEqual(48);
    await twoHours.check();
    const before = Date.now();
    await page.getByRole('button', { name: 'Speichern' }).click();
    expect(await stateSays(page, 'Gespeichert.')).toMatch(
      /^Gespeichert\. Sie sind verfügbar bis (heute|morgen), \d\d:\d\d Uhr\.$/,
    );
    const saved = await stored(s.handler._id);
    expect(saved.available).toBe(true);
    const end = Date.parse(saved.availableUntil ?? '');
    expect(end).toBeGreaterThan(before + 2 * 3_600_000 - 61_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
    await page.getByText('So findet man Sie jetzt').waitFor();
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await saveScreenshot(page, 'handler-page-phone');

    // The public finder, on another phone near him.
    const finder = await openPage(browser, app, { position: MUNICH });
    const card = finder.page.locator('.card').filter({ hasText: 'Hannes Hochsitz' });
    await card.waitFor();
    expect(await card.locator('.until').textContent()).toBe(
      `verfügbar bis ${finderTime(saved.availableUntil ?? '')}`,
    );

    // Off: after a reload the finder no longer lists him.
    await toggle.click();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await stateSays(page, 'Gespeichert. Sie sind nicht verfügbar.');
    expect((await stored(s.handler._id)).available).toBe(false);
    await finder.page.reload();
    await finder.page.getByRole('heading', { level: 2, name: /verfügbar/i }).waitFor();
    expect(await finder.page.locator('.card h3').allTextContents()).not.toContain(
      'Hannes Hochsitz',
    );
    await finder.close();
    await s.close();
  });

  it('saves a chosen date and time as that wall-clock time in Europe/Berlin and says it as a weekday', async () => {
    const s = await signedInHandler({ available: false, gps: { lat: 50.1, lng: 8.7 } });
    const { page } = s;
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const day = berlinClock(inThreeDays).slice(0, 10); // 2026-11-28
    await page.getByRole('switch', { name: 'verfügbar' }).check();
    await page.getByRole('radio', { name: 'Datum und Uhrzeit' }).check();
    await page.getByLabel('Ende am').fill(`${day}T20:00`);
    await page.getByRole('button', { name: 'Speichern' }).click();

    const weekday = new Intl.DateTimeFormat('de-DE', {
      weekday: 'long',
      timeZone: BERLIN_TIME,
    }).format(new Date(inThreeDays));
    await stateSays(page, `Gespeichert. Sie sind verfügbar bis ${weekday}, 20:00 Uhr.`);
    const saved = await stored(s.handler._id);
    expect(saved.available).toBe(true);
    expect(berlinClock(saved.availableUntil ?? '')).toBe(`${day} 20:00`);

    // An end in the past is refused on the page, before any request, in German.
    await page.getByLabel('Ende am').fill('2020-01-01T10:00');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Dieses Ende ist schon vorbei. Bitte ein späteres wählen.',
    );
    expect(await stored(s.handler._id)).toEqual(saved);
    await s.close();
  });

  it('“Meinen Standort aktualisieren”: a refused position is explained; granted, it is stored and shown', async () => {
    const s = await signedInHandler({ name: 'Greta Ohne Ort', available: true });
    const { page, context } = s;
    await page.getByText('Ihr Standort fehlt').waitFor();
    await page.getByText('Noch kein Standort gespeichert.').waitFor();

    const update = page.getByRole('button', { name: 'Meinen Standort aktualisieren' });
    await update.click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Ihr Standort ist nicht freigegeben' })
      .waitFor();

    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 52.516271, longitude: 13.377704, accuracy: 12 });
    await update.click();
    await stateSays(page, /^Gespeichert heute, \d\d:\d\d Uhr, auf etwa 12 m genau\.$/);
    await page.getByText('Gespeicherter Standort: 52,51627° N, 13,3777° O').waitFor();
    expect((await stored(s.handler._id)).gps).toEqual({ lat: 52.51627, lng: 13.3777 });
    // Now the nearest search finds him.
    await page.getByText('So findet man Sie jetzt').waitFor();
    await s.close();
  });

  it('shows only his own record, and a forced write from the page to another handler gets 403', async () => {
    const other = await createHandler(app, {
      name: 'Otto Anderer',
      phone: '+49 40 999 888',
      available: false,
    });
    const s = await signedInHandler({ name: 'Ida Eigen', gps: { lat: 51, lng: 10 } });
    const { page } = s;
    await page.locator('.card h3').filter({ hasText: 'Ida Eigen' }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('Otto Anderer');
    expect(text).not.toContain('999 888');
    // The page asked for no record but its own.
    const records = s.requests.filter((url) => url.includes('/api/users'));
    expect(records).toEqual([`${app.url}/api/users/${s.handler._id}`]);

    const token = await app.login(s.username, s.password);
    const statuses = await page.evaluate(
      async ({ id, bearer }) => {
        const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
        const write = await fetch(`/api/users/${id}/availability`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ available: true }),
        });
        const gps = await fetch(`/api/users/${id}/gps`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ lat: 1, lng: 1 }),
        });
        const read = await fetch(`/api/users/${id}`, { headers });
        return [write.status, gps.status, read.status];
      },
      { id: other._id, bearer: token },
    );
    expect(statuses).toEqual([403, 403, 403]);
    const untouched = await stored(other._id);
    expect(untouched.available).toBe(false);
    expect(untouched.gps).toBeUndefined();
    await s.close();
  });

  it('shows a name that looks like HTML as those characters, and no dialog opens', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const address = '<script>alert(2)</script> Am Hochsitz 1';
    const s = await signedInHandler({ name, address, gps: { lat: 49, lng: 9 } });
    const { page } = s;
    const card = page.locator('.card');
    await card.waitFor();
    expect(await card.locator('h3').textContent()).toBe(name);
    expect(await card.locator('.address').textContent()).toBe(address);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.getByRole('link', { name: `SMS schreiben an ${name}` }).count()).toBe(1);
    expect(s.dialogs).toEqual([]);
    await s.close();
    expect(s.dialogs).toEqual([]);
  });

  it('says so when his record was deleted, and offers no reload that cannot help', async () => {
    const username = `hf-${randomBytes(4).toString('hex')}`;
    const { handler, token } = await handlerAccount(app, username, { name: 'Gelöschter Hof' });
    const deleted = await app.request({
      method: 'DELETE',
      url: `/api/users/${handler._id}`,
      as: app.admin,
    });
    expect(deleted.statusCode).toBe(200);
    const session = await openPage(browser, app, {
      path: setPasswordPath(HANDLER_PAGE, username, token),
    });
    const { page } = session;
    const password = `ein Satz als Passwort ${randomBytes(3).toString('hex')}`;
    await setPassword(page, password);
    await page.getByText('Das Passwort ist gesetzt').waitFor();
    await signIn(page, username, password);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'Der Eintrag, dem dieses Konto zugeordnet ist, wurde gelöscht. Bitte wenden Sie sich an die Verwaltung.',
      })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Erneut laden' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Verfügbarkeit' }).count()).toBe(0);
    await session.close();
  });

  it('keeps the token in no storage, and “Abmelden” brings the form back with his record gone (desktop)', async () => {
    const s = await signedInHandler(
      { name: 'Dora Desktop', address: 'Forstweg 7, 29614 Soltau', gps: { lat: 53, lng: 9.8 } },
      { device: 'desktop' },
    );
    const { page } = s;
    await page.locator('.card h3').filter({ hasText: 'Dora Desktop' }).waitFor();
    expect(await storedState(page)).toEqual({ local: 0, session: 0, cookies: [] });
    await saveScreenshot(page, 'handler-page-desktop');

    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('Dora Desktop');
    expect(text).not.toContain('Forstweg');
    expect(await page.locator('.card').count()).toBe(0);
    expect(await storedState(page)).toEqual({ local: 0, session: 0, cookies: [] });
    await s.close();
  });

  it('works by keyboard: Tab reaches the switch and the ends (focus ring shown), Space and Enter operate them', async () => {
    const s = await signedInHandler({ available: false, gps: { lat: 47.5, lng: 10.2 } });
    const { page } = s;
    const focused = () =>
      page.evaluate<string>(
        `(() => { const e = document.activeElement;
          return (e.getAttribute('role') ?? e.type ?? e.tagName) + ':' + (e.value ?? ''); })()`,
      );
    for (let i = 0; i < 10 && !(await focused()).startsWith('switch'); i += 1) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toMatch(/^switch/);
    expect(await focusRing(page)).toEqual({ style: 'solid', width: 3 });
    await page.keyboard.press('Space');
    expect(await page.getByRole('switch', { name: 'verfügbar' }).isChecked()).toBe(true);

    // The ends: one stop for the group; Space picks the first, an arrow key the next.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('radio:zwei-stunden');
    expect(await focusRing(page)).toEqual({ style: 'solid', width: 3 });
    await page.keyboard.press('Space');
    expect(await page.getByRole('radio', { name: /^2 Stunden/ }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowDown');
    const next = await focused();
    expect(['radio:heute', 'radio:morgen']).toContain(next);
    expect(await page.locator('input[name="ende"]:checked').inputValue()).toBe(
      next.slice('radio:'.length),
    );

    // On to "Speichern", and Enter saves.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('submit:');
    await page.keyboard.press('Enter');
    await stateSays(page, /^Gespeichert\. Sie sind verfügbar bis (heute|morgen), 22:00 Uhr\.$/);
    const saved = await stored(s.handler._id);
    expect(saved.available).toBe(true);
    expect(berlinClock(saved.availableUntil ?? '').slice(11)).toBe('22:00');
    await s.close();
  });
  it('follows the phone’s clock: an end that passes is said and hides him; after 22:00 “heute 22:00” gives way to “morgen”; the API’s refusal is shown as it comes', async () => {
    const soon = new Date(Date.now() + 3_600_000);
    const s = await signedInHandler({
      available: true,
      availableUntil: soon.toISOString(),
      gps: { lat: 48.5, lng: 12.1 },
    });
    const { page } = s;
    await stateSays(page, /^Sie sind verfügbar bis (heute|morgen), \d\d:\d\d Uhr\.$/);

    await clockAt(page, new Date(soon.getTime() + 60_000));
    await stateSays(
      page,
      /^Sie sind nicht verfügbar: Ihre Verfügbarkeit endete (heute|gestern|morgen)?/,
    );
    await page
      .getByText('Die Öffentlichkeit sieht Sie gerade nicht: Ihre Verfügbarkeit endete')
      .waitFor();

    // Yesterday evening by the phone's clock (the switch is still on: the saved end stays chosen).
    const yesterday = berlinClock(new Date(Date.now() - 86_400_000).toISOString()).slice(0, 10);
    const lateEvening = berlinInstant(yesterday, '22:30');
    await clockAt(page, lateEvening);
    const tonight = page.getByRole('radio', { name: /^heute 22:00 Uhr/ });
    const tomorrow = page.getByRole('radio', { name: /^morgen 22:00 Uhr/ });
    await tomorrow.waitFor();
    expect(await tonight.count()).toBe(0);
    const nextDay = new Intl.DateTimeFormat('de-DE', { weekday: 'long', timeZone: BERLIN_TIME });
    expect(await tomorrow.getAttribute('value')).toBe('morgen');
    await page
      .getByText(`(${nextDay.format(new Date(lateEvening.getTime() + 86_400_000))})`)
      .waitFor();
    await page.getByText('(bis morgen, 00:30 Uhr)').waitFor();

    // A minute before 22:00 "heute 22:00" is there; that end is past for the directory, which
    // says so in its own words.
    await clockAt(page, berlinInstant(yesterday, '21:59'));
    await tonight.check();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Ungültige Anfrage: availableUntil muss in der Zukunft liegen',
    );
    expect((await stored(s.handler._id)).availableUntil).toBe(s.handler.availableUntil);
    await s.close();
  });

  it('is accessible in the light and the dark scheme: a label on every control, a name on every button and link, text contrast of at least 4.5:1', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const s = await signedInHandler({ available: false }, { colorScheme });
      const { page } = s;
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      await page.getByText('Die Öffentlichkeit sieht Sie gerade nicht').waitFor();
      await page.getByRole('switch', { name: 'verfügbar' }).check();
      await page.getByRole('radio', { name: 'Datum und Uhrzeit' }).check();
      await page.getByLabel('Ende am').waitFor();
      expect(await unlabelledControls(page)).toEqual([]);
      expect(await namelessButtons(page)).toEqual([]);
      expect(await lowContrastTexts(page)).toEqual([]);
      await s.close();
    }
  });
});
