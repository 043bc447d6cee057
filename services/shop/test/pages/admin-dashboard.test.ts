// The admin app's dashboard (web/dashboard/) in real headless Chromium against the real shop:
// orders placed through the API and moved to known days of the shop's time zone (Berlin, as the
// browser's) show as 30 days of bars, in the table of figures and in the totals, exactly as the
// API counts them; the to-do counts link to their filtered lists; and the page on a phone in both
// schemes, with the screenshots of the README.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { SalesFigures } from '@dogshop/contracts/shop';
import { todayIn } from '../../src/modules/sales/service.js';
import { bearer } from '../support/customers.js';
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
import { expectReadableAndFitting } from './layout-checks.js';

const DAY_MS = 86_400_000;
const PRICE = 2.5;

/**
 * The orders: days before today (Berlin), quantity, and the status they are moved to. Two today,
 * one 3 days ago, one on the range's first day (29 days ago), one the day before it (not in the
 * range), one cancelled today (never counted).
 */
const ORDERS = [
  { daysAgo: 0, quantity: 2, status: 'pending' },
  { daysAgo: 0, quantity: 1, status: 'confirmed' },
  { daysAgo: 0, quantity: 8, status: 'cancelled' },
  { daysAgo: 3, quantity: 1, status: 'pending' },
  { daysAgo: 29, quantity: 4, status: 'pending' },
  { daysAgo: 30, quantity: 6, status: 'confirmed' },
] as const;

let app: ServedApp;
let browser: Browser;
let staff: SignedInStaffMember;
let today: string;

const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
const dateText = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

beforeAll(async () => {
  ({ app, browser, staff } = await openBrowserTest({ staff: 'Dana Dashboard' }));
  today = todayIn(app.config.timeZone);
  const treat = await addProduct(app.app, 'Chart treat', String(PRICE), 1000);
  // Out of stock: one active product; an inactive one with none is no to-do.
  await addProduct(app.app, 'Empty bag', '5.00', 0);
  await addProduct(app.app, 'Retired bag', '5.00', 0, false);
  for (const order of ORDERS) {
    const res = await app.request({
      method: 'POST',
      url: '/orders',
      payload: orderBody([{ product_id: treat, quantity: order.quantity, price: PRICE }]),
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.order_id as number;
    // 10:30 UTC is 11:30 or 12:30 in Berlin: the same day there.
    const at = new Date(`${daysBefore(today, order.daysAgo)}T10:30:00Z`);
    await app.app.db.order.update({ where: { id }, data: { createdAt: at } });
    if (order.status !== 'pending') {
      const moved = await app.app.inject({
        method: 'POST',
        url: `/admin/orders/${id}/status`,
        headers: bearer(staff.token),
        payload: { status: order.status },
      });
      expect(moved.statusCode).toBe(200);
    }
  }
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

async function apiFigures(): Promise<SalesFigures> {
  const res = await app.request({ method: 'GET', url: '/admin/stats/sales' });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: SalesFigures }>().data;
}

const rowsOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent)),
    );

describe('the dashboard', () => {
  it('charts the 30 days the API counts, with its totals and figures; the to-do counts link to their filtered lists', async () => {
    const figures = await apiFigures();
    // What the seeded orders make: the API's own count, checked here so the page is held to it.
    expect(figures.days).toHaveLength(30);
    expect(figures.to).toBe(today);
    expect(figures.totals).toEqual({ orders: 4, revenue: 20 });
    expect(figures.todo).toEqual({ pending_orders: 3, products_out_of_stock: 1 });

    const s = await signedInAt(browser, app, staff, { path: '/app/dashboard' });
    const { page } = s;
    const orders = page.getByRole('figure', { name: 'Orders per day' });
    await orders.waitFor();
    await expect(orders.locator('.chart-day').count()).resolves.toBe(30);
    // Bars on the days with orders: 29 days ago, 3 days ago, today (oldest first).
    const barDays = await orders.locator('.chart-day:has(.chart-bar) title').allTextContents();
    expect(barDays).toEqual([
      `${dateText(daysBefore(today, 29))}: 1 order`,
      `${dateText(daysBefore(today, 3))}: 1 order`,
      `${dateText(today)}: 2 orders`,
    ]);
    // The image's name for a screen reader: the caption and the highest day.
    await page
      .getByRole('img', { name: `Orders per day Highest: 2 orders on ${dateText(today)}.` })
      .waitFor();
    await page
      .getByRole('img', {
        name: `Revenue per day Highest: 10.00 on ${dateText(daysBefore(today, 29))}.`,
      })
      .waitFor();

    // The table holds every day's figures as the API gives them, and the totals.
    await expect(rowsOf(page, '.figures tbody tr')).resolves.toEqual(
      figures.days.map((day) => [dateText(day.date), String(day.orders), day.revenue.toFixed(2)]),
    );
    await expect(rowsOf(page, '.figures tfoot tr')).resolves.toEqual([['Total', '4', '20.00']]);
    await expect(page.locator('.totals dd').allTextContents()).resolves.toEqual([
      '4',
      '20.00',
      '5.00',
    ]);

    const pending = page.getByRole('link', { name: '3 pending orders' });
    const outOfStock = page.getByRole('link', { name: '1 product out of stock' });
    await expect(pending.getAttribute('href')).resolves.toBe('/app/?status=pending');
    await expect(outOfStock.getAttribute('href')).resolves.toBe(
      '/app/products?active=true&stock_below=1',
    );
    await saveScreenshot(page, 'shop-dashboard-desktop');

    await pending.click();
    await waitUntil(() => page.url() === `${app.url}/app/?status=pending`, {
      what: 'the pending orders’ list',
    });
    await s.close();
  });

  it.each(['light', 'dark'] as const)(
    'is readable and within the width on a phone in the %s scheme',
    async (colorScheme) => {
      const s = await signedInAt(browser, app, staff, {
        path: '/app/dashboard',
        device: 'phone',
        colorScheme,
      });
      await s.page.getByRole('figure', { name: 'Revenue per day' }).waitFor();
      await expectReadableAndFitting(s.page);
      // The table of figures open: it scrolls in its own box, if at all.
      await s.page.getByText('The figures per day as a table').click();
      await s.page.locator('.figures tbody tr').first().waitFor();
      await expectReadableAndFitting(s.page);
      await s.page.getByText('The figures per day as a table').click();
      await saveScreenshot(
        s.page,
        colorScheme === 'light' ? 'shop-dashboard-phone' : 'shop-dashboard-phone-dark',
      );
      await s.close();
    },
  );
});
