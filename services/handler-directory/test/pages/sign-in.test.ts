// Signing in to the pages that need an account (web/lib/session.tsx), in real headless Chromium
// against the real app: the API's German messages as they come, the login limit, the
// set-password link (used once, gone from the address bar), the token in memory only, an account
// on the other role's page, a session that ends under the page, and logging out.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { ADMIN, VIEWER } from '../support/app.js';
import { createAccount, handlerAccount, setPassword, setPasswordPath } from './accounts.js';
import {
  launchChromium,
  openPage,
  serveApp,
  signIn,
  storedState,
  type ServedApp,
} from './browser.js';

// A browser and the app share two cores with the rest of the test run.
jest.setTimeout(90_000);

const ADMIN_APP = '/verzeichnis/admin/';
const HANDLER_PAGE = '/verzeichnis/mein-eintrag/';

let app: ServedApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([serveApp(), launchChromium()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('signing in to the admin app and the handler’s page', () => {
  it('shows the API’s German message for a wrong password, then signs in; the token is in no storage', async () => {
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'desktop' });
    await s.page.getByLabel('Benutzername').fill(ADMIN.username);
    await s.page.getByLabel('Passwort', { exact: true }).fill('not the password');
    await s.page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(s.page.getByRole('alert').textContent()).resolves.toBe(
      'Benutzername oder Passwort falsch',
    );

    await signIn(s.page, ADMIN.username, ADMIN.password);
    await s.page.getByText(`Angemeldet als ${ADMIN.username}`).waitFor();
    expect(await storedState(s.page)).toEqual({ local: 0, session: 0, cookies: [] });
    await s.close();
  });

  // The viewer is locked out after this test (for the rest of the file).
  it('applies the login limit as the API does: after five failures the sixth try shows the 429 message', async () => {
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'desktop' });
    await s.page.getByLabel('Benutzername').fill(VIEWER.username);
    const alert = s.page.getByRole('alert');
    for (let attempt = 1; attempt <= 6; attempt++) {
      await s.page.getByLabel('Passwort', { exact: true }).fill(`wrong ${attempt}`);
      await s.page.getByRole('button', { name: 'Anmelden' }).click();
      await s.page.getByRole('button', { name: 'Anmelden' }).waitFor();
      await alert.waitFor();
      if (attempt < 6) {
        await expect(alert.textContent()).resolves.toBe('Benutzername oder Passwort falsch');
      }
    }
    await expect(alert.textContent()).resolves.toMatch(
      /^Zu viele fehlgeschlagene Anmeldeversuche, bitte in \d+ Sekunden erneut versuchen$/,
    );
    await s.close();
  });

  it('sets the first password through the link once; the token leaves the address bar at once', async () => {
    const { token } = await handlerAccount(app, 'hanna.link');
    const s = await openPage(browser, app, {
      path: setPasswordPath(HANDLER_PAGE, 'hanna.link', token),
    });
    await s.page.getByRole('heading', { name: 'Passwort festlegen' }).waitFor();
    // Replaced, not kept: neither the address bar nor a reload has the token any more.
    expect(new URL(s.page.url()).hash).toBe('');
    await s.page.reload();
    await s.page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await s.page.goto(`${app.url}${setPasswordPath(HANDLER_PAGE, 'hanna.link', token)}`);
    await s.page.getByRole('heading', { name: 'Passwort festlegen' }).waitFor();

    await setPassword(s.page, 'short');
    await expect(s.page.getByRole('alert').textContent()).resolves.toBe(
      'Das Passwort braucht mindestens 12 Zeichen.',
    );
    await setPassword(s.page, 'eine lange Passphrase');
    await s.page.getByText('Das Passwort ist gesetzt. Bitte melden Sie sich damit an.').waitFor();
    // The username comes from the link.
    await expect(s.page.getByLabel('Benutzername').inputValue()).resolves.toBe('hanna.link');
    await s.page.getByLabel('Passwort', { exact: true }).fill('eine lange Passphrase');
    await s.page.getByRole('button', { name: 'Anmelden' }).click();
    await s.page.getByText('Angemeldet als hanna.link').waitFor();
    await s.close();

    // The same link again: the API's 400, shown as it comes.
    const again = await openPage(browser, app, {
      path: setPasswordPath(HANDLER_PAGE, 'hanna.link', token),
    });
    await setPassword(again.page, 'noch eine Passphrase');
    await expect(again.page.getByRole('alert').textContent()).resolves.toBe(
      'Der Link zum Setzen des Passworts ist ungültig, abgelaufen oder schon benutzt',
    );
    await again.close();
  });

  it('sends an account signed in on the other role’s page to its own page', async () => {
    const s = await openPage(browser, app, { path: HANDLER_PAGE });
    await signIn(s.page, ADMIN.username, ADMIN.password);
    await s.page.getByRole('heading', { name: 'Diese Seite ist nicht für Ihr Konto' }).waitFor();
    await expect(
      s.page.getByRole('link', { name: 'Verwaltung' }).getAttribute('href'),
    ).resolves.toBe(ADMIN_APP);
    await s.close();
  });

  it('goes back to the form with a German notice when the account is disabled under the page', async () => {
    const created = await createAccount(app, {
      username: 'ada.second',
      role: 'admin',
      password: 'adas lange Passphrase',
    });
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'desktop' });
    await signIn(s.page, 'ada.second', 'adas lange Passphrase');
    await s.page.getByText('Angemeldet als ada.second').waitFor();
    // The handler list has loaded (with the token that still works).
    await s.page.getByText(/Hundeführer gefunden/).waitFor();

    const res = await app.request({
      method: 'PATCH',
      url: `/api/accounts/${created.data.id}`,
      payload: { disabled: true },
      as: app.admin,
    });
    expect(res.statusCode).toBe(200);
    // The page's next request carries a token that no longer works: 401, back to the form.
    await s.page.getByRole('link', { name: 'Konten' }).click();
    await s.page.getByText('Die Anmeldung ist abgelaufen. Bitte erneut anmelden.').waitFor();
    await expect(s.page.getByLabel('Benutzername').inputValue()).resolves.toBe('ada.second');
    await s.close();
  });

  it('forgets everything on logout: the form is back, the account’s data gone from the page', async () => {
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'desktop' });
    await signIn(s.page, ADMIN.username, ADMIN.password);
    await s.page.getByText(`Angemeldet als ${ADMIN.username}`).waitFor();
    await s.page.getByRole('button', { name: 'Abmelden' }).click();
    await s.page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await expect(s.page.getByLabel('Benutzername').inputValue()).resolves.toBe('');
    expect(await s.page.locator('body').textContent()).not.toContain(ADMIN.username);
    expect(await storedState(s.page)).toEqual({ local: 0, session: 0, cookies: [] });
    await s.close();
  });
});

describe('„Passwort ändern“', () => {
  it('keeps the session on a wrong current password (the API’s 401 shown beside the form); a right one changes it, and the page goes on with its new token', async () => {
    const username = 'paula.passwort';
    const first = 'Paulas erste Passphrase';
    const second = 'Paulas zweite Passphrase';
    await createAccount(app, { username, role: 'viewer', password: first });
    // Signed in elsewhere too: that token ends with the change.
    const elsewhere = await app.login(username, first);
    const s = await openPage(browser, app, { path: ADMIN_APP, device: 'phone' });
    const { page } = s;
    await signIn(page, username, first);
    await page.getByText(`Angemeldet als ${username}`).waitFor();

    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    const form = page.getByRole('form', { name: 'Passwort ändern' });
    await form.getByLabel('Aktuelles Passwort').fill('nicht das Passwort');
    await form.getByLabel('Neues Passwort', { exact: true }).fill(second);
    await form.getByLabel('Neues Passwort wiederholen').fill(second);
    await form.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'Benutzername oder Passwort falsch',
    );
    // Still signed in: no login form, the list still loads with the token.
    expect(await page.getByRole('heading', { name: 'Anmelden' }).count()).toBe(0);
    await page.getByText(`Angemeldet als ${username}`).waitFor();

    // Too long for the API: a sentence beside the new password, not the API's path.
    const tooLong = 'x'.repeat(129);
    await form.getByLabel('Aktuelles Passwort').fill(first);
    await form.getByLabel('Neues Passwort', { exact: true }).fill(tooLong);
    await form.getByLabel('Neues Passwort wiederholen').fill(tooLong);
    await form.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(
      form.getByRole('alert').filter({ hasText: 'neues Passwort' }).textContent(),
    ).resolves.toBe('Bitte ein neues Passwort aus 12 bis 128 Zeichen eingeben.');
    expect(
      await form.getByLabel('Neues Passwort', { exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');

    await form.getByLabel('Neues Passwort', { exact: true }).fill(second);
    await form.getByLabel('Neues Passwort wiederholen').fill(second);
    await form.getByRole('button', { name: 'Passwort ändern' }).click();
    await page.getByRole('status').filter({ hasText: 'Das Passwort ist geändert.' }).waitFor();
    expect(await form.count()).toBe(0);
    expect(await storedState(page)).toEqual({ local: 0, session: 0, cookies: [] });

    const login = (password: string) =>
      app.request({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect((await login(first)).statusCode).toBe(401);
    expect((await login(second)).statusCode).toBe(200);
    const ended = await app.request({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${elsewhere}` },
    });
    expect(ended.statusCode).toBe(401);
    // The page's new token works: a search reads the list again, still signed in.
    const reread = page.waitForResponse((res) => res.url().includes('/api/users?'));
    await page.getByLabel('Suche (Name, Telefon, Adresse)').fill('Paula');
    await page.getByLabel('Suche (Name, Telefon, Adresse)').press('Enter');
    expect((await reread).status()).toBe(200);
    expect(await page.getByRole('heading', { name: 'Anmelden' }).count()).toBe(0);
    await s.close();
  });
});
