// The admin app's frame in real headless Chromium against the real shop on 127.0.0.1: served at
// /app/ with its CSP, the sign-in, the sections each role sees (a staff member no settings), a
// URL naming no section of the account, and nothing kept in web storage.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { pagesContentSecurityPolicy } from '@dogshop/service-kit';
import type { SignedInStaffMember } from '../support/staff.js';
import {
  APP,
  closeBrowserTest,
  openBrowserTest,
  openPage,
  type ServedApp,
  signedInAt,
  storedState,
} from './browser.js';

let app: ServedApp;
let browser: Browser;
let admin: SignedInStaffMember;
let staff: SignedInStaffMember;
let viewer: SignedInStaffMember;

beforeAll(async () => {
  ({ app, browser, admin, staff, viewer } = await openBrowserTest({
    admin: 'Ada Admin',
    staff: 'Sam Staff',
    viewer: 'Vic Viewer',
  }));
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

const sectionNames = (page: Page) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();

describe('the admin app at /app/', () => {
  it('is served with the pages’ CSP, and any path below /app/ answers the app', async () => {
    for (const path of [APP, '/app/orders/42', '/app/settings/keys?x=1']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(pagesContentSecurityPolicy());
    }
    expect((await fetch(`${app.url}/app`, { redirect: 'manual' })).headers.get('location')).toBe(
      APP,
    );
  });

  it('signs an admin in and shows every section; the token is in no web storage', async () => {
    const s = await signedInAt(browser, app, admin);
    expect(await sectionNames(s.page)).toEqual([
      'Orders',
      'Products',
      'Categories',
      'Customers',
      'Reviews',
      'Dashboard',
      'Staff',
      'API keys',
      'Webhooks',
    ]);
    expect(await storedState(s.page)).toEqual({ local: 0, session: 0, cookies: [] });
    await s.close();
  });

  it('shows a staff member no settings, and a settings URL says there is no such page', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/settings/staff' });
    expect(await sectionNames(s.page)).not.toContain('Staff');
    await s.page.getByRole('heading', { name: 'There is no such page' }).waitFor();
    await s.close();
  });

  it('refuses a wrong password with the API’s message and keeps the form', async () => {
    const s = await openPage(browser, app);
    await s.page.getByLabel('E-mail').fill(viewer.email);
    await s.page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(s.page.getByRole('alert').textContent()).resolves.toBe(
      'Invalid email or password',
    );
    await s.close();
  });
});
