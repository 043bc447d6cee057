// The staff page in real headless Chromium against the real shop: an account made there gets
// its set-password link shown once; opened in another browser, the link sets the password and
// the new account signs in with the role chosen. A disabled account's login is refused; a role
// changes in place; a reset shows a new link once; the last admin cannot lock itself out (the
// API's message on its card). On a phone, light and dark, contrast and names hold.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { STAFF_PASSWORD, type SignedInStaffMember } from '../support/staff.js';
import {
  closeBrowserTest,
  openBrowserTest,
  openPage,
  saveScreenshot,
  type ServedApp,
  signedInAt,
  signIn,
  WAIT_MS,
} from './browser.js';
import { expectReadableAndFitting } from './layout-checks.js';

const STAFF = '/app/settings/staff';
const NEW_PASSWORD = 'Rosa reads the orders every morning';

let app: ServedApp;
let browser: Browser;
let admin: SignedInStaffMember;
let sam: SignedInStaffMember;

beforeAll(async () => {
  ({
    app,
    browser,
    admin,
    staff: sam,
  } = await openBrowserTest({
    admin: 'Ada Admin',
    staff: 'Sam Staff',
  }));
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

/** The account's card (its heading is the name). */
const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The card's facts (status, password, last sign-in). */
const facts = (page: Page, name: string) =>
  card(page, name).getByRole('definition').allTextContents();

const linkField = (page: Page) => page.getByRole('textbox', { name: 'Set-password link' });

const loginStatus = async (email: string, password = STAFF_PASSWORD) =>
  (
    await fetch(`${app.url}/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).status;

describe('the staff page', () => {
  it('creates an account whose link, shown once, sets its password; it signs in with the chosen role', async () => {
    const s = await signedInAt(browser, app, admin, { path: STAFF });
    const { page } = s;
    await card(page, 'Sam Staff').waitFor();

    const form = page.getByRole('form', { name: 'New account' });
    // A name of spaces only: the API's refusal as a sentence beside the name, not its path.
    await form.getByLabel('E-mail').fill('Rosa.Reader@Shop.example');
    await form.getByLabel('Name').fill('   ');
    await form.getByRole('button', { name: 'Create account' }).click();
    await form
      .getByText('Enter a name: not empty, and not longer than the field allows.')
      .waitFor();
    await expect(form.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await form.textContent()).not.toContain('body.name');
    // A taken e-mail: the API's message.
    await form.getByLabel('E-mail').fill(sam.email);
    await form.getByLabel('Name').fill('Sam Again');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'a staff account with this e-mail already exists',
    );
    await form.getByLabel('E-mail').fill('Rosa.Reader@Shop.example');
    await form.getByLabel('Name').fill('Rosa Reader');
    await form.getByLabel('Role').selectOption({ label: 'Read only' });
    await form.getByRole('button', { name: 'Create account' }).click();

    const heading = page.getByRole('heading', {
      name: 'Account created: the link for Rosa Reader',
    });
    await heading.waitFor();
    await expect(page.evaluate<string>('document.activeElement.id')).resolves.toBe(
      'set-password-link',
    );
    const link = await linkField(page).inputValue();
    expect(link).toMatch(
      new RegExp(`^${app.url}/app/#email=rosa\\.reader%40shop\\.example&token=[\\w-]{20,}$`),
    );
    await page.getByText(/It works once, until \d{1,2} \w{3} \d{4}, \d\d:\d\d\./).waitFor();
    await expect(facts(page, 'Rosa Reader')).resolves.toEqual(['Active', 'Not set yet', 'Never']);
    await expect(
      card(page, 'Rosa Reader').getByLabel('Role of Rosa Reader').inputValue(),
    ).resolves.toBe('viewer');
    // The form is empty again, for the next account.
    await expect(form.getByLabel('E-mail').inputValue()).resolves.toBe('');

    await page.getByRole('button', { name: 'Done' }).click();
    await expect(linkField(page).count()).resolves.toBe(0);
    await s.close();

    // The link in another browser: choose the password, then sign in with it.
    const url = new URL(link);
    const rosa = await openPage(browser, app, { path: url.pathname + url.hash });
    rosa.page.setDefaultTimeout(WAIT_MS);
    await rosa.page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await rosa.page.getByLabel('New password').fill(NEW_PASSWORD);
    await rosa.page.getByLabel('Repeat the password').fill(NEW_PASSWORD);
    await rosa.page.getByRole('button', { name: 'Save password' }).click();
    await rosa.page.getByText('Your password is set. Sign in with it now.').waitFor();
    await signIn(rosa.page, 'rosa.reader@shop.example', NEW_PASSWORD);
    await rosa.page.getByText('Signed in as rosa.reader@shop.example (read only)').waitFor();
    await expect(
      rosa.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).resolves.not.toContain('Staff');
    await rosa.close();

    // Shown once: the admin's page, opened again, has the account (its password set) and no link.
    const again = await signedInAt(browser, app, admin, { path: STAFF });
    await card(again.page, 'Rosa Reader').waitFor();
    await expect(facts(again.page, 'Rosa Reader')).resolves.toEqual([
      'Active',
      'Set',
      expect.stringMatching(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/),
    ]);
    await expect(linkField(again.page).count()).resolves.toBe(0);
    await saveScreenshot(again.page, 'shop-settings-staff-desktop');
    expect(await again.page.content()).not.toContain('token=');
    await again.close();
  });

  it('disables and enables an account, changes a role in place, resets a password, and keeps the last admin', async () => {
    const s = await signedInAt(browser, app, admin, { path: STAFF });
    const { page } = s;
    const samCard = card(page, 'Sam Staff');

    // Disabled: its login is refused and its token ends at once.
    await samCard.getByRole('button', { name: `Disable (${sam.email})` }).click();
    await page.getByText('Sam Staff is disabled and signed out everywhere.').waitFor();
    await expect(facts(page, 'Sam Staff')).resolves.toEqual([
      'Disabled',
      'Set',
      expect.any(String),
    ]);
    expect(await loginStatus(sam.email)).toBe(401);
    const samToken = await fetch(`${app.url}/admin/orders`, {
      headers: { authorization: `Bearer ${sam.token}` },
    });
    expect(samToken.status).toBe(401);
    await samCard.getByRole('button', { name: `Enable (${sam.email})` }).click();
    await page.getByText('Sam Staff can sign in again.').waitFor();
    expect(await loginStatus(sam.email)).toBe(200);

    // The role in place: Save appears once another role is chosen.
    const role = samCard.getByLabel('Role of Sam Staff');
    await expect(samCard.getByRole('button', { name: /^Save role/ }).count()).resolves.toBe(0);
    await role.selectOption({ label: 'Admin' });
    await samCard.getByRole('button', { name: `Save role (${sam.email})` }).click();
    await page.getByText('Sam Staff is now Admin.').waitFor();
    const listed = await app.request({ method: 'GET', url: '/admin/staff' });
    expect(listed.json().data.find((a: { id: number }) => a.id === sam.id).role).toBe('admin');
    await role.selectOption({ label: 'Staff' });
    await samCard.getByRole('button', { name: `Save role (${sam.email})` }).click();
    await page.getByText('Sam Staff is now Staff.').waitFor();

    // A reset: a new link shown once, which sets a new password.
    await samCard.getByRole('button', { name: `Reset password (${sam.email})` }).click();
    await page.getByRole('heading', { name: 'New link for Sam Staff' }).waitFor();
    await page.getByText(/Earlier links no longer work/).waitFor();
    const link = new URL(await linkField(page).inputValue());
    const token = new URLSearchParams(link.hash.slice(1)).get('token');
    const set = await fetch(`${app.url}/admin/auth/set-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Sam has a new passphrase now' }),
    });
    expect(set.status).toBe(200);
    expect(await loginStatus(sam.email, 'Sam has a new passphrase now')).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();

    // The only admin cannot demote or disable itself: the API's message, on its own card.
    const own = card(page, 'Ada Admin');
    await own.getByText('Your own account').waitFor();
    await own.getByLabel('Role of Ada Admin').selectOption({ label: 'Staff' });
    await own.getByRole('button', { name: /^Save role/ }).click();
    await expect(own.getByRole('alert').textContent()).resolves.toBe(
      'the last enabled admin cannot be disabled or demoted',
    );
    await own.getByRole('button', { name: `Disable (${admin.email})` }).click();
    await own.getByRole('alert').waitFor();
    await expect(own.getByRole('alert').textContent()).resolves.toBe(
      'the last enabled admin cannot be disabled or demoted',
    );
    await expect(facts(page, 'Ada Admin')).resolves.toEqual(['Active', 'Set', expect.any(String)]);
    expect(await loginStatus(admin.email)).toBe(200);
    await s.close();
  });

  it('keeps its contrast and names on a phone, light and dark, with a link shown', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const s = await signedInAt(browser, app, admin, {
        path: STAFF,
        device: 'phone',
        colorScheme,
      });
      const { page } = s;
      await card(page, 'Sam Staff')
        .getByRole('button', { name: `Reset password (${sam.email})` })
        .click();
      await linkField(page).waitFor();
      await card(page, 'Sam Staff')
        .getByLabel('Role of Sam Staff')
        .selectOption({ label: 'Read only' });
      await expectReadableAndFitting(page);
      await s.close();
    }
  });
});
