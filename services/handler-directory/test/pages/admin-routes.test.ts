// The admin app's sections as URLs (web/admin/app.tsx on web-kit's router), in real headless
// Chromium at desktop size against the real app on 127.0.0.1: a section's URL (and a search's)
// opened directly shows that section after signing in; Back and Forward go through the sections
// and searches visited, without loading the page again (which would forget the token and show
// the login form); a viewer's URL of an admin-only section shows no such section. Every page
// checks on closing that nothing left the origin, the CSP blocked nothing and no script failed
// (browser.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
  await createHandler(app, { name: 'Routen Alpha', available: true });
  await createHandler(app, { name: 'Routen Beta', available: false });
  await createHandler(app, { name: 'Routen Gamma', available: true });
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
