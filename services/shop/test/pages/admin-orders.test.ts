// The admin app's orders in real headless Chromium against the real shop on 127.0.0.1: find an
// order by the customer's name, confirm it and ship it with a note, read both changes with the
// staff member's name on its timeline and the new status in the storefront API; the status
// filters with their counts; an order's URL opened directly, and Back to the filtered list; a
// viewer without write controls (and a write forced from the console refused); HTML in a
// customer's name shown as text; the phone and the dark scheme.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { addProduct, orderBody } from '../support/orders.js';
import type { SignedInStaffMember } from '../support/staff.js';
import {
  APP,
  closeBrowserTest,
  openBrowserTest,
  saveScreenshot,
  type ServedApp,
  signedInAt,
} from './browser.js';
import { expectReadableAndFitting } from './layout-checks.js';

let app: ServedApp;
let browser: Browser;
let admin: SignedInStaffMember;
let viewer: SignedInStaffMember;
let productId: number;

/** An order placed through the storefront API by a guest; its id. */
async function placeOrder(name: string, email = 'guest@example.com'): Promise<number> {
  const res = await app.request({
    method: 'POST',
    url: '/orders',
    payload: orderBody([{ product_id: productId, quantity: 1, price: 12.5 }], {
      customer_name: name,
      customer_email: email,
    }),
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { order_id: number } }>().data.order_id;
}

beforeAll(async () => {
  ({ app, browser, admin, viewer } = await openBrowserTest({
    admin: 'Ada Admin',
    viewer: 'Vic Viewer',
  }));
  productId = await addProduct(app.app, 'Tracking lead, 10 m', '12.50', 1_000);
  for (let i = 0; i < 3; i++) await placeOrder(`Filler Customer ${i}`);
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

/** The order numbers the list shows, once its live region reports `count` found. */
async function listed(page: Page, count: number): Promise<string[]> {
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^${count} orders? found`) })
    .waitFor();
  return page.locator('table.orders tbody tr td:first-child').allTextContents();
}

const statusButton = (page: Page, name: RegExp) =>
  page.getByRole('group', { name: 'Status' }).getByRole('button', { name });

describe('orders', () => {
  it('finds an order by name, confirms it, ships it with a note, and the timeline and the store API show both', async () => {
    const id = await placeOrder('Hedwig Schweisshund', 'hedwig@example.com');
    const s = await signedInAt(browser, app, admin);
    const { page } = s;
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.getByLabel('Search').fill('Schweisshund');
    expect(await listed(page, 1)).toEqual([`#${id}`]);
    expect(new URL(page.url()).search).toBe('?q=Schweisshund');

    await page.getByRole('link', { name: `#${id}` }).click();
    await page.getByRole('heading', { name: `Order #${id} Pending` }).waitFor();
    // Only the statuses a pending order may change to: no "Mark as shipped" yet.
    expect(await page.locator('.status-actions > button').allTextContents()).toEqual([
      'Confirm',
      'Cancel order',
    ]);

    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Status changed to Confirmed.' }).waitFor();

    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Note (optional)').fill('Parcel DHL 0034 5678');
    await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
    await page.getByRole('status').filter({ hasText: 'Status changed to Shipped.' }).waitFor();

    const timeline = await page.locator('.timeline li').allInnerTexts();
    expect(timeline).toHaveLength(3);
    expect(timeline[0]).toMatch(/^Order placed /);
    expect(timeline[1]).toMatch(/^Pending → Confirmed by Ada Admin /);
    expect(timeline[2]).toMatch(/^Confirmed → Shipped by Ada Admin .*\nParcel DHL 0034 5678$/s);
    await saveScreenshot(page, 'shop-order-desktop');

    const stored = await app.request({ method: 'GET', url: `/orders/${id}` });
    expect(stored.json<{ data: { status: string } }>().data.status).toBe('shipped');
    await s.close();
  });

  it('shows each status with its count, and filters by it', async () => {
    const s = await signedInAt(browser, app, admin);
    const { page } = s;
    const total = (await app.app.db.order.count()).toString();
    const pending = (await app.app.db.order.count({ where: { status: 'pending' } })).toString();
    await statusButton(page, new RegExp(`^All ${total}$`)).waitFor();
    await page.locator('table.orders tbody tr').first().waitFor();
    await saveScreenshot(page, 'shop-orders-desktop');
    await statusButton(page, new RegExp(`^Pending ${pending}$`)).click();
    expect(await listed(page, Number(pending))).toHaveLength(Number(pending));
    expect(new URL(page.url()).search).toBe('?status=pending');
    expect(await statusButton(page, /^Pending/).getAttribute('aria-pressed')).toBe('true');
    await s.close();
  });

  it('opens an order’s URL directly after sign-in, and Back returns to the filtered list', async () => {
    const id = await placeOrder('Bruno Bayerischer', 'bruno@example.com');
    const direct = await signedInAt(browser, app, admin, { path: `/app/orders/${id}` });
    await direct.page.getByRole('heading', { name: `Order #${id} Pending` }).waitFor();
    expect(await direct.page.getByText('bruno@example.com').count()).toBe(1);
    await direct.close();

    const s = await signedInAt(browser, app, admin, {
      path: `${APP}?q=Bayerischer&status=pending`,
    });
    const { page } = s;
    expect(await listed(page, 1)).toEqual([`#${id}`]);
    await page.getByRole('link', { name: `#${id}` }).click();
    await page.getByRole('heading', { name: `Order #${id} Pending` }).waitFor();
    await page.goBack();
    expect(await listed(page, 1)).toEqual([`#${id}`]);
    expect(new URL(page.url()).search).toBe('?q=Bayerischer&status=pending');
    expect(await page.getByLabel('Search').inputValue()).toBe('Bayerischer');
    await s.close();
  });

  it('says so for an order that does not exist', async () => {
    const s = await signedInAt(browser, app, admin, { path: '/app/orders/999999' });
    await s.page.getByRole('heading', { name: 'No such order' }).waitFor();
    await s.close();
  });

  it('shows a viewer no write control, and refuses a write forced from the console', async () => {
    const id = await placeOrder('Viktor Viewed');
    const s = await signedInAt(browser, app, viewer, { path: `/app/orders/${id}` });
    const { page } = s;
    await page.getByRole('heading', { name: `Order #${id} Pending` }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await page.locator('.status-actions').count()).toBe(0);
    expect(await page.locator('main textarea, main form.add-note').count()).toBe(0);
    // Everything a viewer can press: the account bar's, and on the list the filters.
    expect(await page.locator('main section button').count()).toBe(0);

    // "From the console": the viewer's own login and a status change with its token.
    const status = await page.evaluate(
      `(async () => {
        const login = await fetch('/admin/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: '${viewer.email}', password: 'a long staff passphrase' }),
        });
        const { token } = await login.json();
        const res = await fetch('/admin/orders/${id}/status', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
          body: JSON.stringify({ status: 'confirmed' }),
        });
        return res.status;
      })()`,
    );
    expect(status).toBe(403);
    const stored = await app.request({ method: 'GET', url: `/orders/${id}` });
    expect(stored.json<{ data: { status: string } }>().data.status).toBe('pending');
    await s.close();
  });

  it('shows HTML in a customer’s name as text', async () => {
    const name = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const id = await placeOrder(name);
    const s = await signedInAt(browser, app, admin, { path: `${APP}?q=${id}` });
    await s.page.locator('table.orders .customer').getByText(name, { exact: true }).waitFor();
    await s.page.getByRole('link', { name: `#${id}` }).click();
    await s.page.locator('dl.facts-list dd').getByText(name).waitFor();
    expect(await s.page.locator('main img').count()).toBe(0);
    expect(s.dialogs).toEqual([]);
    await s.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`works on a phone in the ${colorScheme} scheme: labelled, readable, nothing cut off`, async () => {
      const s = await signedInAt(browser, app, admin, { device: 'phone', colorScheme });
      const { page } = s;
      await page.locator('table.orders tbody tr').first().waitFor();
      await expectReadableAndFitting(page);
      if (colorScheme === 'light') await saveScreenshot(page, 'shop-orders-phone');

      await page.locator('table.orders tbody a').first().click();
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      await expectReadableAndFitting(page);
      if (colorScheme === 'light') await saveScreenshot(page, 'shop-order-phone');
      await s.close();
    });
  }
});
