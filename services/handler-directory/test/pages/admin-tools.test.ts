// The admin app's import, accounts and handler history (web/admin/import.tsx, accounts.tsx,
// history.tsx) in real headless Chromium at desktop size, against the real app on 127.0.0.1: a
// file checked and applied, an account created with its set-password link shown once and used,
// disabled, its password reset, a viewer kept out, and text from the database that looks like
// HTML shown as text. Every page checks on closing that nothing left the origin, the CSP blocked
// nothing and no script failed (browser.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Handler } from '@dogshop/contracts/handler-directory';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, VIEWER } from '../support/app.js';
import { createHandler } from '../support/handlers.js';
import { createAccount, setPassword, setPasswordPath } from './accounts.js';
import {
  focusRing,
  launchChromium,
  lowContrastTexts,
  openPage,
  saveScreenshot,
  serveApp,
  signIn,
  unlabelledControls,
  type PageSession,
  type ServedApp,
} from './browser.js';

const ADMIN_APP = '/verzeichnis/admin/';
const LOOKS_LIKE_HTML = '<img src=x onerror=alert(1)>';
const SET_PASSWORD_REFUSED =
  'Der Link zum Setzen des Passworts ist ungültig, abgelaufen oder schon benutzt';

/** The longest wait for one thing on a page (generous: other tests run Chromium beside these). */
const WAIT_MS = 15_000;

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The admin app at desktop size, signed in, showing `section` (a link of the nav). */
async function adminApp(
  section: 'Hundeführer' | 'Import' | 'Konten',
  account = ADMIN,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<PageSession> {
  const s = await openPage(browser, app, { path: ADMIN_APP, device: 'desktop', colorScheme });
  // A wait that fails names its locator, inside the test's time.
  s.page.setDefaultTimeout(WAIT_MS);
  await signIn(s.page, account.username, account.password);
  await s.page.getByText(`Angemeldet als ${account.username}`).waitFor();
  if (section !== 'Hundeführer') {
    await s.page
      .getByRole('navigation', { name: 'Bereiche' })
      .getByRole('link', { name: section })
      .click();
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Import

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_HEADER =
  'id,name,address,phone,type,available,availableUntil,availabilityConfirmedAt,lat,lng,createdAt,updatedAt';
const csv = (...rows: string[]) => Buffer.from(`${[CSV_HEADER, ...rows].join('\r\n')}\r\n`);
const csvRow = (name: string, lat: number) => `,${name},,+49 30 5566,,true,,,${lat},13.4,,`;

async function dryRunProblems(file: Buffer) {
  const res = await app.request({
    method: 'POST',
    url: '/api/users/import?dryRun=true',
    payload: file,
    headers: { 'content-type': 'text/csv' },
    as: app.admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ problems: Array<{ row: number; column: string; message: string }> }>().problems;
}

async function choose(page: Page, name: string, buffer: Buffer, mimeType = 'text/csv') {
  await page.getByLabel('Datei (CSV oder XLSX)').setInputFiles({ name, mimeType, buffer });
  await page.getByRole('button', { name: 'Prüfen' }).click();
}

/** The cells of a table's body rows, row by row. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name: caption }).locator('tbody tr');
  await rows.first().waitFor();
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td, th')].map((cell) => cell.textContent ?? '')),
  );
  return cells;
}

const counts = (page: Page) => page.locator('.counts dd').allTextContents();

async function handlersNamed(q: string): Promise<Handler[]> {
  const res = await app.request({
    method: 'GET',
    url: `/api/users?q=${encodeURIComponent(q)}`,
    as: app.admin,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: Handler[] }>().data;
}

describe('the import', () => {
  it('shows a bad row’s problem with its row and column and offers no Übernehmen; a good file is previewed, applied, and its handlers exist; the export’s XLSX comes back unchanged; 415 and 413 as they come', async () => {
    const s = await adminApp('Import');
    const { page } = s;

    // Another type than CSV or XLSX: the API's 415, as it comes.
    await choose(page, 'liste.txt', Buffer.from('name\nA\n'), 'text/plain');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Nicht unterstützter Content-Type (erwartet: text/csv oder eine XLSX-Datei)',
    );

    const bad = csv(
      csvRow('Ida Import', 52.5),
      csvRow('Jan Import', 52.6),
      csvRow('Kai Falsch', 200),
    );
    const [problem] = await dryRunProblems(bad);
    expect(problem).toMatchObject({ row: 4, column: 'lat' });
    await choose(page, 'liste.csv', bad);
    await page.getByRole('heading', { name: 'Vorschau des Imports' }).waitFor();
    await expect(tableRows(page, 'Probleme')).resolves.toEqual([['4', 'lat', problem?.message]]);
    await expect(counts(page)).resolves.toEqual(['2', '0', '0', '1']);
    await expect(
      page.getByRole('status').filter({ hasText: 'Geprüft' }).textContent(),
    ).resolves.toBe('Geprüft: 1 Problem; so kann die Datei nicht übernommen werden.');
    await expect(page.getByRole('button', { name: 'Übernehmen' }).count()).resolves.toBe(0);

    const good = csv(csvRow('Ida Import', 52.5), csvRow('Jan Import', 52.6));
    await choose(page, 'gut.csv', good);
    await page.getByRole('heading', { name: 'Vorschau des Imports' }).waitFor();
    await expect(counts(page)).resolves.toEqual(['2', '0', '0', '0']);
    await expect(tableRows(page, 'Zeilen der Datei')).resolves.toEqual([
      ['2', 'neu'],
      ['3', 'neu'],
    ]);
    await expect(page.getByRole('table', { name: 'Probleme' }).count()).resolves.toBe(0);
    // A dry run writes nothing.
    await expect(handlersNamed('Import')).resolves.toEqual([]);
    await expect(unlabelledControls(page)).resolves.toEqual([]);
    await saveScreenshot(page, 'admin-import-desktop');

    await page.getByRole('button', { name: 'Übernehmen' }).click();
    await page.getByRole('heading', { name: 'Ergebnis des Imports' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Übernommen: 2 neu, 0 geändert, 0 unverändert.' })
      .waitFor();
    await expect(page.getByRole('button', { name: 'Übernehmen' }).count()).resolves.toBe(0);
    const imported = await handlersNamed('Import');
    expect(imported.map((h) => [h.name, h.gps?.lat]).sort()).toEqual([
      ['Ida Import', 52.5],
      ['Jan Import', 52.6],
    ]);

    // The export's XLSX of just these two, imported as it is: both unchanged.
    const xlsx = await app.request({
      method: 'GET',
      url: '/api/users/export?format=xlsx&q=Import',
      as: app.admin,
    });
    expect(xlsx.statusCode).toBe(200);
    await choose(page, 'export.xlsx', xlsx.rawPayload, XLSX);
    await page
      .getByRole('status')
      .filter({ hasText: 'Geprüft: 0 neu, 0 geändert, 2 unverändert' })
      .waitFor();
    await expect(counts(page)).resolves.toEqual(['0', '0', '2', '0']);

    // Over 10 MB: the API's 413, as it comes (the upload takes a few seconds on a busy machine).
    await choose(page, 'gross.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Datei zu groß (höchstens 10 MB und 50.000 Zeilen)',
    );
    await s.close();
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Accounts

/** The account's card in the list (its heading is the username). */
const card = (page: Page, username: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: username, exact: true }) });

/** The focused element's id and its focus ring (`solid 3`: the shared 3 px ring). */
async function focused(page: Page) {
  const ring = await focusRing(page);
  return {
    id: await page.evaluate<string>('document.activeElement.id'),
    ring: `${ring.style} ${ring.width}`,
  };
}

/** The page's one-time link, as shown once. */
async function shownLink(page: Page, username: string): Promise<string> {
  await page.getByRole('heading', { name: new RegExp(`Link für ${username}$`) }).waitFor();
  return page.getByLabel('Link zum Setzen des Passworts').inputValue();
}

/** The path and fragment of a link on this app, for openPage. */
const pathOf = (link: string) => {
  const url = new URL(link);
  expect(url.origin).toBe(app.url);
  return url.pathname + url.hash;
};

/** Opens a set-password link in a new browser context and sets `password` through its form. */
async function usePasswordLink(link: string, password: string): Promise<PageSession> {
  const s = await openPage(browser, app, { path: pathOf(link), device: 'desktop' });
  s.page.setDefaultTimeout(WAIT_MS);
  await s.page.getByRole('heading', { name: 'Passwort festlegen' }).waitFor();
  await setPassword(s.page, password);
  return s;
}

const loginStatus = async (username: string, password: string) =>
  (
    await app.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    })
  ).statusCode;

describe('the accounts', () => {
  it('creates a handler account bound to a searched record; the link is shown once, sets the password, and the handler signs in', async () => {
    const handler = await createHandler(app, { name: `Hof Lindenau ${LOOKS_LIKE_HTML}` });
    const s = await adminApp('Konten');
    const { page } = s;
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write']);

    const form = page.getByRole('form', { name: 'Neues Konto' });
    await form.getByLabel('Benutzername').fill('hanna.lindenau');
    await form.getByLabel('Rolle').selectOption({ label: 'Hundeführer' });
    await form.getByLabel('Eintrag suchen (Name, Telefon oder Adresse)').fill('Lindenau');
    await form.getByRole('radio', { name: handler.name }).check();
    await expect(form.getByText('Gewählt:').textContent()).resolves.toBe(
      `Gewählt: ${handler.name}`,
    );
    await form.getByRole('button', { name: 'Konto anlegen' }).click();

    const link = await shownLink(page, 'hanna.lindenau');
    expect(link).toMatch(/\/verzeichnis\/mein-eintrag\/#konto=hanna\.lindenau&passwort=[\w-]+$/);
    await page.getByText(/Er gilt einmal und bis \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr/).waitFor();
    await page.getByRole('button', { name: 'Link kopieren' }).click();
    await page.getByRole('status').filter({ hasText: 'kopiert' }).waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);

    // The bound record's name, as text (no element made of it), in the new account's card.
    const hanna = card(page, 'hanna.lindenau');
    await expect(hanna.getByRole('definition').allTextContents()).resolves.toEqual([
      'Hundeführer',
      handler.name,
      'aktiv',
      'noch nicht gesetzt',
    ]);
    await expect(page.locator('img').count()).resolves.toBe(0);
    expect(s.dialogs).toEqual([]);
    await card(page, 'viktor.viewer')
      .getByRole('button', { name: 'Rolle ändern (viktor.viewer)' })
      .click();
    await expect(unlabelledControls(page)).resolves.toEqual([]);
    await saveScreenshot(page, 'admin-accounts-desktop');
    await s.close();

    const owner = await usePasswordLink(link, 'Hannas lange Passphrase');
    await owner.page
      .getByText('Das Passwort ist gesetzt. Bitte melden Sie sich damit an.')
      .waitFor();
    expect(new URL(owner.page.url()).pathname).toBe('/verzeichnis/mein-eintrag/');
    await signIn(owner.page, 'hanna.lindenau', 'Hannas lange Passphrase');
    await owner.page.getByText('Angemeldet als hanna.lindenau').waitFor();
    await owner.close();

    // Shown once: the reloaded admin app has no link, only the account, its password now set.
    const again = await adminApp('Konten');
    await expect(
      card(again.page, 'hanna.lindenau').getByRole('definition').last().textContent(),
    ).resolves.toBe('gesetzt');
    await expect(again.page.getByLabel('Link zum Setzen des Passworts').count()).resolves.toBe(0);
    expect(await again.page.locator('body').textContent()).not.toContain('passwort=');
    await again.close();
  });

  it('disables an account (its login fails), rebinds a handler account, resets its password (the new link works, the old one gives the API’s 400) and shows the last admin’s 409', async () => {
    await createAccount(app, {
      username: 'vera.weg',
      role: 'viewer',
      password: 'Veras lange Passphrase',
    });
    const first = await createHandler(app, { name: 'Erster Hof' });
    const second = await createHandler(app, { name: 'Zweiter Hof Birkenweg' });
    const created = await createAccount(app, {
      username: 'otto.neu',
      role: 'handler',
      handlerId: first._id,
    });
    const oldLink = `${app.url}${setPasswordPath('/verzeichnis/mein-eintrag/', 'otto.neu', created.setPasswordToken ?? '')}`;

    const s = await adminApp('Konten');
    const { page } = s;

    await card(page, 'vera.weg').getByRole('button', { name: 'Deaktivieren (vera.weg)' }).click();
    await card(page, 'vera.weg')
      .getByRole('button', { name: 'Aktivieren (vera.weg)', exact: true })
      .waitFor();
    await card(page, 'vera.weg').getByText('deaktiviert').waitFor();
    expect(await loginStatus('vera.weg', 'Veras lange Passphrase')).toBe(401);

    const otto = card(page, 'otto.neu');
    await otto.getByText('Erster Hof').waitFor();
    await otto.getByRole('button', { name: 'Rolle ändern (otto.neu)' }).click();
    const editor = otto.getByRole('form', { name: 'Rolle von otto.neu ändern' });
    await editor.getByLabel('Eintrag suchen (Name, Telefon oder Adresse)').fill('Birkenweg');
    await editor.getByRole('radio', { name: second.name }).check();
    await editor.getByRole('button', { name: 'Speichern' }).click();
    await editor.waitFor({ state: 'detached' });
    await expect(otto.getByRole('definition').nth(1).textContent()).resolves.toBe(second.name);
    const stored = await app.request({
      method: 'GET',
      url: `/api/accounts/${created.data.id}`,
      as: app.admin,
    });
    expect(stored.json<{ data: { handlerId: string } }>().data.handlerId).toBe(second._id);

    await otto.getByRole('button', { name: 'Passwort zurücksetzen (otto.neu)' }).click();
    const newLink = await shownLink(page, 'otto.neu');
    expect(newLink).not.toBe(oldLink);
    await page.getByText('frühere Links gelten nicht mehr').waitFor();

    // The only admin cannot disable itself: the API's 409, as it comes.
    await card(page, ADMIN.username)
      .getByRole('button', { name: `Deaktivieren (${ADMIN.username})` })
      .click();
    await expect(card(page, ADMIN.username).getByRole('alert').textContent()).resolves.toBe(
      'Das letzte aktive Administratorkonto kann nicht deaktiviert oder herabgestuft werden',
    );
    await s.close();

    const stale = await usePasswordLink(oldLink, 'Ottos alte Passphrase');
    await expect(stale.page.getByRole('alert').textContent()).resolves.toBe(SET_PASSWORD_REFUSED);
    await stale.close();
    const fresh = await usePasswordLink(newLink, 'Ottos neue Passphrase');
    await fresh.page
      .getByText('Das Passwort ist gesetzt. Bitte melden Sie sich damit an.')
      .waitFor();
    await fresh.close();
    expect(await loginStatus('otto.neu', 'Ottos neue Passphrase')).toBe(200);
  });

  it('says a refused username beside the field in words, not as the API’s path', async () => {
    const s = await adminApp('Konten');
    const { page } = s;
    const form = page.getByRole('form', { name: 'Neues Konto' });
    const username = form.getByLabel('Benutzername');
    await username.fill('ab');
    await form.getByLabel('Rolle').selectOption('viewer');
    await form.getByRole('button', { name: 'Konto anlegen' }).click();
    const said = form.getByRole('alert');
    await expect(said.textContent()).resolves.toBe(
      'Bitte einen Benutzernamen aus 3 bis 64 Buchstaben, Ziffern, Punkten, Unterstrichen, @ oder Bindestrichen eingeben.',
    );
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    expect(await username.getAttribute('aria-describedby')).toContain(
      (await said.getAttribute('id'))!,
    );
    expect(await form.innerText()).not.toMatch(/body\.username|Ungültige Anfrage/);
    await s.close();
  });

  it('shows a handler account whose record was deleted as such, with what to do', async () => {
    const record = await createHandler(app, { name: 'Bald Weg' });
    await createAccount(app, { username: 'ida.ohne', role: 'handler', handlerId: record._id });
    const deleted = await app.request({
      method: 'DELETE',
      url: `/api/users/${record._id}`,
      as: app.admin,
    });
    expect(deleted.statusCode).toBe(200);
    const s = await adminApp('Konten');
    await card(s.page, 'ida.ohne')
      .getByText('gelöscht – bitte einem anderen Eintrag zuordnen oder das Konto deaktivieren')
      .waitFor();
    await s.close();
  });

  it('is operable by keyboard: an account made with keys only, each control with the 3 px focus ring', async () => {
    const handler = await createHandler(app, { name: 'Hof Tastatur' });
    const s = await adminApp('Konten');
    const { page } = s;
    const form = page.getByRole('form', { name: 'Neues Konto' });
    await form.getByLabel('Benutzername').focus();
    await page.keyboard.type('tina.tastatur');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ id: 'neues-konto-rolle', ring: 'solid 3' });
    await page.keyboard.press('Tab');
    await page.keyboard.type('Tastatur');
    await form.getByRole('radio', { name: handler.name }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(form.getByRole('radio', { name: handler.name }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ ring: 'solid 3' });
    await page.keyboard.press('Enter');
    await shownLink(page, 'tina.tastatur');
    // Focus moved to the link's heading: the next Tab reaches the link itself.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ id: 'einmal-link-value', ring: 'solid 3' });
    await s.close();
  });

  it('shows a viewer no Import and no Konten; the accounts API refuses its token with 403', async () => {
    const s = await adminApp('Hundeführer', VIEWER);
    await expect(s.page.getByRole('navigation', { name: 'Bereiche' }).count()).resolves.toBe(0);
    await expect(s.page.getByRole('link', { name: 'Konten' }).count()).resolves.toBe(0);
    await expect(s.page.getByRole('link', { name: 'Import' }).count()).resolves.toBe(0);
    const token = await app.login(VIEWER.username, VIEWER.password);
    // As if typed into the console: the page's origin, the viewer's token.
    const status = await s.page.evaluate<number>(
      `fetch('/api/accounts', { headers: { authorization: 'Bearer ${token}' } }).then((r) => r.status)`,
    );
    expect(status).toBe(403);
    await s.close();
  });
});

// ---------------------------------------------------------------------------------------------
// History

/** A write to a handler through the API, as the test admin or with another account's token. */
async function write(method: 'PUT', url: string, payload: object, token = app.admin.token) {
  const res = await app.request({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
}

/** Each shown entry: its line (when – what von who) and its changes' rows. */
async function historyEntries(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.locator('.history-entry').first().waitFor();
  return dialog.locator('.history-entry').evaluateAll((entries) =>
    entries.map((entry) => ({
      what: entry.querySelector('.history-what')?.textContent ?? '',
      changes: [...entry.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.children].map((cell) => cell.textContent ?? ''),
      ),
    })),
  );
}

/** `22.03.2026, 20:00 Uhr – ` */
const WHEN = String.raw`\d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr – `;

describe('a handler’s history', () => {
  it('lists each change newest first with its author and each field before and after, from the handler list’s Verlauf button; an HTML-looking name stays text', async () => {
    const oldName = `Hof Eiche ${LOOKS_LIKE_HTML}`;
    const newName = `Hof Eiche am Bach ${LOOKS_LIKE_HTML}`;
    const handler = await createHandler(app, { name: oldName, phone: '0171 1' });
    const url = `/api/users/${handler._id}`;
    await write('PUT', `${url}/availability`, { available: false });
    await write('PUT', url, { name: newName });
    await createAccount(app, {
      username: 'emil.eiche',
      role: 'handler',
      handlerId: handler._id,
      password: 'Emils lange Passphrase',
    });
    const emil = await app.login('emil.eiche', 'Emils lange Passphrase');
    await write('PUT', `${url}/gps`, { lat: 50.5, lng: 9.5 }, emil);

    const s = await adminApp('Hundeführer');
    const { page } = s;
    await page.getByRole('button', { name: `Verlauf von ${newName}` }).click();
    await page.getByRole('dialog', { name: `Verlauf von ${newName}` }).waitFor();
    const entries = await historyEntries(page);
    expect(entries.map((entry) => entry.what)).toEqual([
      expect.stringMatching(
        new RegExp(`^${WHEN}Position gesetzt von emil\\.eiche \\(Hundeführer\\)$`),
      ),
      expect.stringMatching(new RegExp(`^${WHEN}geändert von anna\\.admin \\(Administration\\)$`)),
      expect.stringMatching(
        new RegExp(`^${WHEN}Verfügbarkeit gesetzt von anna\\.admin \\(Administration\\)$`),
      ),
      expect.stringMatching(new RegExp(`^${WHEN}angelegt von anna\\.admin \\(Administration\\)$`)),
    ]);
    const [gps, rename, availability, created] = entries;
    expect(gps?.changes).toEqual([['Position', 'leer', '50,5° N, 9,5° O']]);
    expect(rename?.changes).toEqual([['Name', oldName, newName]]);
    expect(availability?.changes).toContainEqual(['verfügbar', 'ja', 'nein']);
    expect(created?.changes).toEqual(
      expect.arrayContaining([
        ['Name', 'leer', oldName],
        ['Telefon', 'leer', '0171 1'],
      ]),
    );
    await expect(page.locator('img').count()).resolves.toBe(0);
    expect(s.dialogs).toEqual([]);
    await s.close();
  });

  it('loads older entries a page at a time on a phone ("Ältere laden")', async () => {
    const handler = await createHandler(app, { name: 'Hof Viele Wechsel' });
    // 21 writes and the creation: 22 entries, one more page after the first 20.
    for (let i = 0; i < 21; i++) {
      await write('PUT', `/api/users/${handler._id}/availability`, { available: i % 2 === 1 });
    }
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'phone' });
    s.page.setDefaultTimeout(WAIT_MS);
    await signIn(s.page, ADMIN.username, ADMIN.password);
    const { page } = s;
    await page.getByRole('button', { name: `Verlauf von ${handler.name}` }).click();
    expect(await historyEntries(page)).toHaveLength(20);
    await saveScreenshot(page, 'admin-history-phone');
    await page.getByRole('button', { name: 'Ältere laden' }).click();
    await page.getByRole('dialog').locator('.history-entry').nth(21).waitFor();
    const all = await historyEntries(page);
    expect(all).toHaveLength(22);
    expect(all.at(-1)?.what).toMatch(/angelegt von anna\.admin/);
    await expect(page.getByRole('button', { name: 'Ältere laden' }).count()).resolves.toBe(0);
    await s.close();
  });
});

// ---------------------------------------------------------------------------------------------
// Contrast

describe('the admin tools’ colours', () => {
  it.each(['light', 'dark'] as const)(
    'keep text contrast of at least 4.5:1 in the %s scheme: import report with a problem, accounts with a link, history',
    async (scheme) => {
      const handler = await createHandler(app, { name: `Hof Kontrast ${scheme}` });
      const s = await adminApp('Import', ADMIN, scheme);
      const { page } = s;
      await choose(page, 'liste.csv', csv(csvRow('Kai Falsch', 200)));
      await page.getByRole('table', { name: 'Probleme' }).waitFor();
      expect(await lowContrastTexts(page)).toEqual([]);

      await page.getByRole('link', { name: 'Konten' }).click();
      await card(page, VIEWER.username)
        .getByRole('button', { name: `Passwort zurücksetzen (${VIEWER.username})` })
        .click();
      await shownLink(page, VIEWER.username);
      expect(await lowContrastTexts(page)).toEqual([]);

      await page.getByRole('link', { name: 'Hundeführer', exact: true }).click();
      await page.getByRole('button', { name: `Verlauf von ${handler.name}` }).click();
      await historyEntries(page);
      expect(await lowContrastTexts(page)).toEqual([]);
      await s.close();
    },
  );
});
