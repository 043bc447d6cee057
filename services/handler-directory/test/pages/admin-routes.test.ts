// The admin app's sections as URLs (web/admin/app.tsx on web-kit's router), in real headless
// Chromium at desktop size against the real app on 127.0.0.1: a section's URL (and a search's)
// opened directly shows that section after signing in; Back and Forward go through the sections
// and searches visited, without loading the page again (which would forget the token and show
// the login form); a viewer's URL of an admin-only section shows no such section. A handler's
// editor and history are URLs too: opened directly they show that handler, Back closes them and
// shows the list's search, closing them from the page goes back (focus on the opener), and an
// id that names no handler says so. Every page
// checks on closing that nothing left the origin, the CSP blocked nothing and no script failed
// (browser.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Handler } from '@dogshop/contracts/handler-directory';
import type { Browser, Page } from 'playwright-core';
import { waitUntil } from '@dogshop/web-kit/testing';
import { ADMIN, VIEWER } from '../support/app.js';
import { createHandler } from '../support/handlers.js';
import { launchChromium, openPage, serveApp, signIn, type ServedApp } from './browser.js';

const ADMIN_APP = '/verzeichnis/admin/';
/** The longest wait for one thing on a page (generous: other tests run Chromium beside these). */
const WAIT_MS = 15_000;

let app: ServedApp;
let browser: Browser;
let alpha: Handler;
let gamma: Handler;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
  alpha = await createHandler(app, { name: 'Routen Alpha', available: true, phone: '0170 111' });
  await createHandler(app, { name: 'Routen Beta', available: false });
  gamma = await createHandler(app, { name: 'Routen Gamma', available: true, phone: '0170 333' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Opens `path` of the admin app at desktop size and signs in there. */
async function signedInAt(path: string, account = ADMIN) {
  const s = await openPage(browser, app, { path, device: 'desktop' });
  s.page.setDefaultTimeout(WAIT_MS);
  await signIn(s.page, account.username, account.password);
  await s.page.getByText(`Angemeldet als ${account.username}`).waitFor();
  return s;
}

/** The names in the handler list once its live region reports `count` found. */
async function listed(page: Page, count: number): Promise<string[]> {
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^${count} Hundeführer gefunden`) })
    .waitFor();
  return page.locator('.handler-table tbody .name').allTextContents();
}

/** The nav's link marked as the current section. */
const currentSection = (page: Page) =>
  page.getByRole('navigation', { name: 'Bereiche' }).locator('[aria-current="page"]').textContent();

/** The path and query of the page's address. */
const address = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** The accessible name of the focused element (the row buttons' is their aria-label). */
const focusedName = (page: Page) =>
  page.evaluate<string>(
    'document.activeElement.getAttribute("aria-label") ?? document.activeElement.textContent',
  );

describe('the admin app’s sections as URLs', () => {
  it('opening a section’s URL directly after sign-in shows that section, and a search’s URL that search', async () => {
    const accounts = await signedInAt(`${ADMIN_APP}konten`);
    await accounts.page.getByRole('heading', { name: 'Konten', exact: true }).waitFor();
    await accounts.page.getByRole('heading', { name: VIEWER.username }).waitFor();
    expect(await currentSection(accounts.page)).toBe('Konten');
    expect(address(accounts.page)).toBe(`${ADMIN_APP}konten`);
    await accounts.close();

    const imports = await signedInAt(`${ADMIN_APP}import`);
    await imports.page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    expect(await currentSection(imports.page)).toBe('Import');
    await imports.close();

    const search = await signedInAt(`${ADMIN_APP}?suche=Routen&verfuegbar=true`);
    expect(await listed(search.page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    await expect(
      search.page.getByLabel('Suche (Name, Telefon, Adresse)').inputValue(),
    ).resolves.toBe('Routen');
    await expect(
      search.page.getByLabel('Verfügbarkeit', { exact: true }).inputValue(),
    ).resolves.toBe('true');
    expect(await currentSection(search.page)).toBe('Hundeführer');
    await search.close();
  });

  it('Back returns to the previous section and search, Forward goes ahead again, and the page is never loaded again', async () => {
    const s = await signedInAt(ADMIN_APP);
    const { page } = s;
    let loads = 0;
    page.on('load', () => (loads += 1));

    await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('Routen');
    expect(await listed(page, 3)).toEqual(['Routen Alpha', 'Routen Beta', 'Routen Gamma']);
    await waitUntil(() => address(page) === `${ADMIN_APP}?suche=Routen`, { what: 'the URL' });

    await page.getByLabel('Verfügbarkeit', { exact: true }).selectOption('false');
    expect(await listed(page, 1)).toEqual(['Routen Beta']);
    await waitUntil(() => address(page) === `${ADMIN_APP}?suche=Routen&verfuegbar=false`, {
      what: 'the URL',
    });

    await page.getByRole('link', { name: 'Konten' }).click();
    await page.getByRole('heading', { name: 'Konten', exact: true }).waitFor();
    expect(address(page)).toBe(`${ADMIN_APP}konten`);

    // Back: the list with the last search, its controls showing it.
    await page.goBack();
    expect(await listed(page, 1)).toEqual(['Routen Beta']);
    expect(await currentSection(page)).toBe('Hundeführer');
    await expect(page.getByLabel('Verfügbarkeit', { exact: true }).inputValue()).resolves.toBe(
      'false',
    );

    // Back: the search before it.
    await page.goBack();
    expect(await listed(page, 3)).toEqual(['Routen Alpha', 'Routen Beta', 'Routen Gamma']);
    await expect(page.getByLabel('Verfügbarkeit', { exact: true }).inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Suche (Name, Telefon, Adresse)').inputValue()).resolves.toBe(
      'Routen',
    );

    // Forward twice: the filtered list, then the accounts again.
    await page.goForward();
    expect(await listed(page, 1)).toEqual(['Routen Beta']);
    await page.goForward();
    await page.getByRole('heading', { name: 'Konten', exact: true }).waitFor();

    // Still signed in (the token is in memory only: a reload would have shown the login form).
    expect(loads).toBe(0);
    await expect(page.getByRole('heading', { name: 'Anmelden' }).count()).resolves.toBe(0);
    await s.close();
  });

  it('shows a viewer who opens an admin-only section’s URL no such section, and no accounts', async () => {
    const s = await signedInAt(`${ADMIN_APP}konten`, VIEWER);
    await s.page.getByRole('heading', { name: 'Diesen Bereich gibt es nicht' }).waitFor();
    await expect(s.page.getByRole('heading', { name: ADMIN.username }).count()).resolves.toBe(0);
    await s.page.getByRole('link', { name: 'Zur Liste der Hundeführer' }).click();
    await s.page
      .getByRole('status')
      .filter({ hasText: /^\d+ Hundeführer gefunden/ })
      .waitFor();
    expect(address(s.page)).toBe(ADMIN_APP);
    await s.close();
  });
});

describe('a handler’s editor and history as URLs', () => {
  it('opening a handler’s editor URL directly after sign-in shows that handler in the editor, and the new handler’s URL an empty one; closing shows the list of the URL’s search', async () => {
    const s = await signedInAt(
      `${ADMIN_APP}hundefuehrer/${gamma._id}?suche=Routen&verfuegbar=true`,
    );
    const { page } = s;
    await page.getByRole('heading', { name: 'Routen Gamma bearbeiten' }).waitFor();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(
      'Routen Gamma',
    );
    await expect(page.getByLabel('Telefon').inputValue()).resolves.toBe('0170 333');
    expect(await currentSection(page)).toBe('Hundeführer');
    expect(address(page)).toBe(
      `${ADMIN_APP}hundefuehrer/${gamma._id}?suche=Routen&verfuegbar=true`,
    );

    // Cancelled: the list of the URL's search, with its controls.
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    expect(await listed(page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    expect(address(page)).toBe(`${ADMIN_APP}?suche=Routen&verfuegbar=true`);
    await expect(page.getByLabel('Verfügbarkeit', { exact: true }).inputValue()).resolves.toBe(
      'true',
    );
    await s.close();

    const created = await signedInAt(`${ADMIN_APP}hundefuehrer/neu`);
    await created.page.getByRole('heading', { name: 'Neuer Hundeführer' }).waitFor();
    await expect(created.page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('');
    await created.close();
  });

  it('Back from an opened history or editor returns to the filtered list (URL and rows) without loading it again; closing from the page goes back too, the focus on the button that opened it', async () => {
    const s = await signedInAt(`${ADMIN_APP}?suche=Routen`);
    const { page } = s;
    let loads = 0;
    page.on('load', () => (loads += 1));
    expect(await listed(page, 3)).toEqual(['Routen Alpha', 'Routen Beta', 'Routen Gamma']);
    await page.getByLabel('Verfügbarkeit', { exact: true }).selectOption('true');
    expect(await listed(page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    const filtered = `${ADMIN_APP}?suche=Routen&verfuegbar=true`;
    await waitUntil(() => address(page) === filtered, { what: 'the URL' });
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/users\?/.test(request.url())) listRequests.push(request.url());
    });

    // The history: its own URL with the list's search; Back closes it.
    const history = page.getByRole('dialog', { name: 'Verlauf von Routen Gamma' });
    await page.getByRole('button', { name: 'Verlauf von Routen Gamma' }).click();
    await history.locator('.history-entry').first().waitFor();
    expect(address(page)).toBe(
      `${ADMIN_APP}hundefuehrer/${gamma._id}/verlauf?suche=Routen&verfuegbar=true`,
    );
    await page.goBack();
    await history.waitFor({ state: 'detached' });
    expect(address(page)).toBe(filtered);
    expect(await listed(page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    await expect(page.getByLabel('Verfügbarkeit', { exact: true }).inputValue()).resolves.toBe(
      'true',
    );
    await waitUntil(async () => (await focusedName(page)) === 'Verlauf von Routen Gamma', {
      what: 'the focus on the history’s opener',
    });

    // Forward opens it again; „Schließen“ goes back (no new entry: Back then leaves the search).
    await page.goForward();
    await history.locator('.history-entry').first().waitFor();
    await history.getByRole('button', { name: 'Schließen' }).click();
    await history.waitFor({ state: 'detached' });
    expect(address(page)).toBe(filtered);
    await waitUntil(async () => (await focusedName(page)) === 'Verlauf von Routen Gamma', {
      what: 'the focus on the history’s opener',
    });

    // The editor: cancelled, the focus is on its row's button again; Back closes it too.
    await page.getByRole('button', { name: 'Bearbeiten: Routen Alpha' }).click();
    await page.getByRole('heading', { name: 'Routen Alpha bearbeiten' }).waitFor();
    expect(address(page)).toBe(
      `${ADMIN_APP}hundefuehrer/${alpha._id}?suche=Routen&verfuegbar=true`,
    );
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    expect(await listed(page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    await waitUntil(async () => (await focusedName(page)) === 'Bearbeiten: Routen Alpha', {
      what: 'the focus on the editor’s opener',
    });
    await page.getByRole('button', { name: 'Bearbeiten: Routen Alpha' }).click();
    await page.getByRole('heading', { name: 'Routen Alpha bearbeiten' }).waitFor();
    await page.goBack();
    expect(await listed(page, 2)).toEqual(['Routen Alpha', 'Routen Gamma']);
    expect(address(page)).toBe(filtered);
    await waitUntil(async () => (await focusedName(page)) === 'Bearbeiten: Routen Alpha', {
      what: 'the focus on the editor’s opener',
    });
    // Opening and closing loaded the list no more.
    expect(listRequests).toEqual([]);

    // Back once more: the search before the filter (closing added no entry of its own).
    await page.goBack();
    expect(await listed(page, 3)).toEqual(['Routen Alpha', 'Routen Beta', 'Routen Gamma']);
    expect(address(page)).toBe(`${ADMIN_APP}?suche=Routen`);
    expect(loads).toBe(0);
    await s.close();
  });

  it('says so when the id of an editor’s or a history’s URL names no handler, and leads back to the list', async () => {
    const s = await signedInAt(`${ADMIN_APP}hundefuehrer/000000000000000000000000?suche=Routen`);
    const { page } = s;
    await page.getByRole('heading', { name: 'Hundeführer nicht gefunden' }).waitFor();
    await page.getByText('Unter dieser Adresse ist kein Hundeführer verzeichnet').waitFor();
    await expect(page.getByLabel('Name', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Zur Liste' }).click();
    expect(await listed(page, 3)).toEqual(['Routen Alpha', 'Routen Beta', 'Routen Gamma']);
    expect(address(page)).toBe(`${ADMIN_APP}?suche=Routen`);
    await s.close();

    // A history's URL with an id that is none at all: the dialog says so; Escape closes it.
    const h = await signedInAt(`${ADMIN_APP}hundefuehrer/kein-eintrag/verlauf`);
    const dialog = h.page.getByRole('dialog', { name: 'Hundeführer nicht gefunden' });
    await dialog.getByText('Unter dieser Adresse ist kein Hundeführer verzeichnet').waitFor();
    await h.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await h.page
      .getByRole('status')
      .filter({ hasText: /^\d+ Hundeführer gefunden/ })
      .waitFor();
    expect(address(h.page)).toBe(ADMIN_APP);
    await h.close();
  });

  it('opens a handler’s history by its URL for a viewer, but no editor', async () => {
    const s = await signedInAt(`${ADMIN_APP}hundefuehrer/${alpha._id}/verlauf`, VIEWER);
    await s.page
      .getByRole('dialog', { name: 'Verlauf von Routen Alpha' })
      .locator('.history-entry')
      .first()
      .waitFor();
    await s.close();

    const editor = await signedInAt(`${ADMIN_APP}hundefuehrer/${alpha._id}`, VIEWER);
    await editor.page.getByRole('heading', { name: 'Diesen Bereich gibt es nicht' }).waitFor();
    await expect(editor.page.getByLabel('Name', { exact: true }).count()).resolves.toBe(0);
    await editor.close();
  });
});
