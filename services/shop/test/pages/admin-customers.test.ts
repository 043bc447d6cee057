// The admin app's customers (web/customers/) in real headless Chromium against the real shop: a
// customer found by name (the search in the URL, Back returning to it), their page with the
// saved address and the orders placed with their account, each order linking to its page; and
// both pages on a phone in the light and the dark scheme. Every page checks on closing that
// nothing left the origin, the CSP blocked nothing and no script failed (browser.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { bearer, registerCustomer, type RegisteredCustomer } from '../support/customers.js';
import { addProduct, orderBody } from '../support/orders.js';
import type { SignedInStaffMember } from '../support/staff.js';
import {
  closeBrowserTest,
  openBrowserTest,
  saveScreenshot,
  type ServedApp,
  signedInAt,
  waitUntil,
} from './browser.js';
import { expectReadableAndFitting, goTo } from './layout-checks.js';

let app: ServedApp;
let browser: Browser;
let staff: SignedInStaffMember;
let jana: RegisteredCustomer;
/** Jana's orders, oldest first: 1 × 12.50 (then confirmed) and 2 × 12.50. */
const orders: number[] = [];

beforeAll(async () => {
  ({ app, browser, staff } = await openBrowserTest({ staff: 'Sam Staff' }));
  jana = await registerCustomer(app, {
    email: 'jana.johannsen@example.com',
    first_name: 'Jana',
    last_name: 'Johannsen',
    phone: '+49 4131 123456',
  });
  // Others the search must leave out.
  await registerCustomer(app, { first_name: 'Otto', last_name: 'Ölmann' });
  await registerCustomer(app, { first_name: 'Jan', last_name: 'Petersen' });
  const address = await app.app.inject({
    method: 'POST',
    url: `/customers/${jana.id}/addresses`,
    headers: bearer(jana.token),
    payload: {
      first_name: 'Jana',
      last_name: 'Johannsen',
      address: 'Am Sande 1',
      city: 'Lüneburg',
      postal_code: '21335',
      country: 'DE',
      is_default: true,
    },
  });
  expect(address.statusCode).toBe(201);
  const lead = await addProduct(app.app, 'Customer page lead', '12.50', 100);
  for (const quantity of [1, 2]) {
    const res = await app.request({
      method: 'POST',
      url: '/orders',
      headers: bearer(jana.token),
      payload: orderBody([{ product_id: lead, quantity, price: 12.5 }], {
        customer_email: jana.email,
      }),
    });
    expect(res.statusCode).toBe(201);
    orders.push(res.json().data.order_id as number);
  }
  const confirmed = await app.app.inject({
    method: 'POST',
    url: `/admin/orders/${orders[0]}/status`,
    headers: bearer(staff.token),
    payload: { status: 'confirmed' },
  });
  expect(confirmed.statusCode).toBe(200);
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

describe('the customers', () => {
  it('finds a customer by name; their page shows the address and the orders, each linking to its page; Back returns to the search', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/customers' });
    const { page } = s;
    await page.getByRole('status').filter({ hasText: '3 customers.' }).waitFor();

    await page.getByLabel('Name or e-mail').fill('johannsen');
    await waitUntil(() => page.url().endsWith('/app/customers?q=johannsen'), { what: 'the URL' });
    await page
      .getByRole('status')
      .filter({ hasText: '1 customer found for “johannsen”.' })
      .waitFor();
    const rows = page.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.locator('th, td').allTextContents()).resolves.toEqual([
      'Jana Johannsen',
      'jana.johannsen@example.com',
      '+49 4131 123456',
      expect.stringMatching(/^\d{1,2} \w{3} \d{4}$/),
    ]);

    await page.getByRole('link', { name: 'Jana Johannsen' }).click();
    await page.getByRole('heading', { name: 'Jana Johannsen', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/customers/${jana.id}`);
    const addresses = page.getByRole('region', { name: 'Addresses' });
    await expect(addresses.locator('li').allInnerTexts()).resolves.toEqual([
      'Default address\n\nJana Johannsen\nAm Sande 1\n21335 Lüneburg\nDE',
    ]);

    const orderRows = page.getByRole('region', { name: 'Orders' }).locator('tbody tr');
    // Newest first: the pending 2 × 12.50, then the confirmed 1 × 12.50.
    const cells = await orderRows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent)),
    );
    expect(cells).toEqual([
      [
        `Order ${orders[1]}`,
        'Pending',
        '25.00',
        expect.stringMatching(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/),
      ],
      [
        `Order ${orders[0]}`,
        'Confirmed',
        '12.50',
        expect.stringMatching(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d$/),
      ],
    ]);
    await saveScreenshot(page, 'shop-customer-desktop');
    const first = page.getByRole('link', { name: `Order ${orders[0]}`, exact: true });
    await expect(first.getAttribute('href')).resolves.toBe(`/app/orders/${orders[0]}`);
    await first.click();
    await waitUntil(() => new URL(page.url()).pathname === `/app/orders/${orders[0]}`, {
      what: 'the order’s page',
    });

    // Back twice: the customer, then the search as it was.
    await page.goBack();
    await page.getByRole('heading', { name: 'Jana Johannsen', level: 2 }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Jana Johannsen' }).waitFor();
    await expect(page.getByLabel('Name or e-mail').inputValue()).resolves.toBe('johannsen');
    await s.close();
  });

  it('says so when no customer has the id', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/customers/2000000000' });
    await expect(s.page.getByRole('alert').textContent()).resolves.toBe(
      'Customer 2000000000 not found',
    );
    await s.close();
  });

  it.each(['light', 'dark'] as const)(
    'shows the list and a customer on a phone in the %s scheme, readable and within the width',
    async (colorScheme) => {
      const s = await signedInAt(browser, app, staff, {
        path: '/app/customers',
        device: 'phone',
        colorScheme,
      });
      await s.page.getByRole('link', { name: 'Jana Johannsen' }).waitFor();
      await expectReadableAndFitting(s.page);
      await saveScreenshot(s.page, `shop-customers-phone-${colorScheme}`);
      await goTo(s.page, `/app/customers/${jana.id}`);
      await s.page.getByRole('region', { name: 'Orders' }).locator('tbody tr').first().waitFor();
      await expectReadableAndFitting(s.page);
      await saveScreenshot(s.page, `shop-customer-phone-${colorScheme}`);
      await s.close();
    },
  );

  it('shows 50 at a time and the next ones on “Load more”', async () => {
    // Straight into the database: 50 more registrations would only wait for password hashing.
    await app.app.db.customer.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({
        email: `bulk-${i}@example.com`,
        passwordHash: 'unused',
        firstName: 'Bulk',
        lastName: `Customer ${i}`,
      })),
    });
    const s = await signedInAt(browser, app, staff, { path: '/app/customers' });
    const { page } = s;
    await page.getByRole('status').filter({ hasText: '53 customers, 50 shown.' }).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('status').filter({ hasText: '53 customers.' }).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(53);
    // The oldest last; no further page.
    await expect(page.locator('tbody tr th').last().textContent()).resolves.toBe('Jana Johannsen');
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    await s.close();
  });
});
