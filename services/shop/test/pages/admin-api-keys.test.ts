// The API keys page in real headless Chromium against the real shop: a secret key made in the
// page is shown once, works from Node with its scope and only with it, and stops once revoked
// there; after "Done", and after a reload, the key is nowhere on the page. On a phone, light and
// dark, every text keeps its contrast and every control its name.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { SignedInStaffMember } from '../support/staff.js';
import {
  closeBrowserTest,
  openBrowserTest,
  saveScreenshot,
  type ServedApp,
  signedInAt,
  signIn,
} from './browser.js';
import { expectReadableAndFitting } from './layout-checks.js';

const KEYS = '/app/settings/keys';

let app: ServedApp;
let browser: Browser;
let admin: SignedInStaffMember;

/** A key made through the API (the test key), for the list to have more than one kind. */
async function apiKey(body: object) {
  const res = await app.request({ method: 'POST', url: '/admin/api-keys', payload: body });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { id: number }; key: string }>();
}

beforeAll(async () => {
  ({ app, browser, admin } = await openBrowserTest({ admin: 'Ada Admin' }));
  await apiKey({ type: 'publishable', title: 'Web shop' });
  await apiKey({
    type: 'secret',
    title: 'Accounting export',
    scopes: ['orders:read', 'stats:read'],
  });
  const old = await apiKey({ type: 'secret', title: 'Old ERP', scopes: ['orders:write'] });
  expect(
    (await app.request({ method: 'DELETE', url: `/admin/api-keys/${old.data.id}` })).statusCode,
  ).toBe(200);
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

/** The key's row in the list (its name is the row's header). */
const row = (page: Page, title: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title, exact: true }) });

/** Everything the page shows or holds as text: its HTML, and the values of its fields. */
async function pageText(page: Page): Promise<string> {
  const values = await page.evaluate<string[]>(
    "[...document.querySelectorAll('input, textarea')].map((field) => field.value)",
  );
  return [await page.content(), await page.locator('body').innerText(), ...values].join('\n');
}

describe('the API keys page', () => {
  it('shows a new secret key once; it works with its scope only, and revoked, it stops', async () => {
    const s = await signedInAt(browser, app, admin, { path: KEYS });
    const { page } = s;
    await row(page, 'Web shop').waitFor();
    await expect(
      row(page, 'Old ERP')
        .getByText(/^Revoked /)
        .count(),
    ).resolves.toBe(1);

    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name').fill('Warehouse sync');
    // Secret is the default kind; without a scope the sentence shows beside the scopes.
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.getByText('Choose at least one scope.').waitFor();
    await form.getByRole('checkbox', { name: /^Read orders/ }).check();
    await form.getByRole('button', { name: 'Create key' }).click();

    const heading = page.getByRole('heading', { name: 'Secret key “Warehouse sync” created' });
    await heading.waitFor();
    await expect(page.evaluate<string>('document.activeElement.id')).resolves.toBe(
      'new-secret-key',
    );
    const key = await page.getByRole('textbox', { name: 'Secret key', exact: true }).inputValue();
    expect(key).toMatch(/^sk_[\w-]{20,}$/);

    const read = () => fetch(`${app.url}/admin/orders`, { headers: { 'x-api-key': key } });
    expect((await read()).status).toBe(200);
    const write = await fetch(`${app.url}/admin/categories`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Not with this key' }),
    });
    expect(write.status).toBe(403);

    const created = row(page, 'Warehouse sync');
    await expect(created.getByRole('cell').allTextContents()).resolves.toEqual([
      'Secret',
      expect.stringMatching(/^sk_.+…$/),
      'orders:read',
      expect.stringMatching(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/),
      'Never',
      'Revoke Warehouse sync',
    ]);

    await page.getByRole('button', { name: 'Done' }).click();
    await expect(
      page.getByRole('textbox', { name: 'Secret key', exact: true }).count(),
    ).resolves.toBe(0);
    expect(await pageText(page)).not.toContain(key);

    await saveScreenshot(page, 'shop-settings-keys-desktop');

    // Revoked after a confirmation (Cancel first keeps it).
    await created.getByRole('button', { name: 'Revoke Warehouse sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Warehouse sync”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await read()).status).toBe(200);
    await created.getByRole('button', { name: 'Revoke Warehouse sync' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await created.getByText(/^Revoked /).waitFor();
    await page.getByText('“Warehouse sync” is revoked: it opens nothing any more.').waitFor();
    expect((await read()).status).toBe(401);

    // A reload (the session is in memory only: signing in again) never brings the key back.
    await page.reload();
    await signIn(page, admin.email);
    await created.getByText(/^Revoked /).waitFor();
    // It was used (the reads above) before it was revoked.
    await expect(created.getByRole('cell').nth(4).textContent()).resolves.not.toBe('Never');
    expect(await pageText(page)).not.toContain(key);
    await s.close();
  });

  it('makes a publishable key without scopes, and shows it in the list', async () => {
    const s = await signedInAt(browser, app, admin, { path: KEYS });
    const { page } = s;
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name').fill('Second storefront');
    await form.getByRole('radio', { name: /^Publishable key/ }).check();
    await expect(form.getByRole('group', { name: 'Scopes' }).count()).resolves.toBe(0);
    await form.getByRole('button', { name: 'Create key' }).click();
    await page.getByText(/^Publishable key “Second storefront” created: pk_/).waitFor();
    await expect(
      page.getByRole('textbox', { name: 'Secret key', exact: true }).count(),
    ).resolves.toBe(0);
    await expect(
      row(page, 'Second storefront').getByRole('cell').nth(1).textContent(),
    ).resolves.toMatch(/^pk_/);
    await s.close();
  });

  it('keeps its contrast and names on a phone, light and dark (the revoke dialog too)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const s = await signedInAt(browser, app, admin, { path: KEYS, device: 'phone', colorScheme });
      const { page } = s;
      await row(page, 'Web shop').waitFor();
      await page.getByRole('form', { name: 'New key' }).getByLabel('Name').fill('x');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText('Choose at least one scope.').waitFor();
      // Nothing wider than the phone but the table, which scrolls in its own box.
      await expectReadableAndFitting(page);
      await row(page, 'Web shop').getByRole('button', { name: 'Revoke Web shop' }).click();
      await page.getByRole('dialog', { name: 'Revoke “Web shop”?' }).waitFor();
      await expectReadableAndFitting(page);
      await page.keyboard.press('Escape');
      await s.close();
    }
  });
});
