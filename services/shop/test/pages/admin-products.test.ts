// The admin app's products in real headless Chromium against the real shop: the list's filters
// in the address (Back returns to the previous one), price and stock changed in the row (the
// stock with its reason, also by keyboard alone), the movements, the export, the editor of a new
// product and its deactivation as the storefront sees them, the import's preview and apply, a
// product name holding HTML shown as text, a viewer without write controls (and a write forced
// from the console refused), and the list at 360 px in the dark scheme.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { seedCatalogue } from '../support/catalogue.js';
import { STAFF_PASSWORD, type SignedInStaffMember } from '../support/staff.js';
import {
  closeBrowserTest,
  downloadedBytes,
  openBrowserTest,
  saveScreenshot,
  type ServedApp,
  signedInAt,
  waitUntil,
} from './browser.js';
import { expectReadableAndFitting } from './layout-checks.js';

let app: ServedApp;
let browser: Browser;
let staff: SignedInStaffMember;
let viewer: SignedInStaffMember;
let catalogue: Awaited<ReturnType<typeof seedCatalogue>>;

beforeAll(async () => {
  ({ app, browser, staff, viewer } = await openBrowserTest({
    staff: 'Sam Staff',
    viewer: 'Vic Viewer',
  }));
  catalogue = await seedCatalogue(app.app);
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

interface StoreProduct {
  id: number;
  name: string;
  stock: number;
  price: number;
  active: boolean;
}

/** A product as the storefront API shows it (404: not shown). */
async function storeProduct(id: number): Promise<{ status: number; data?: StoreProduct }> {
  const res = await app.request({ method: 'GET', url: `/products/${id}` });
  return { status: res.statusCode, data: res.json<{ data?: StoreProduct }>().data };
}

/** The names of the storefront's products matching `search`. */
async function storeNames(search: string): Promise<string[]> {
  const res = await app.request({
    method: 'GET',
    url: `/products?search=${encodeURIComponent(search)}&limit=50`,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: StoreProduct[] }>().data.map((p) => p.name);
}

/** A product made through the API (the test's full-scope key). */
async function createProduct(fields: Record<string, unknown>): Promise<StoreProduct> {
  const res = await app.request({
    method: 'POST',
    url: '/admin/products',
    payload: { description: '', category_id: catalogue.categoryId('Dogs'), ...fields },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: StoreProduct }>().data;
}

/** The row of the product named `name` (its link's exact name: not the panel under it). */
const rowOf = (page: Page, name: string) =>
  page.locator('tr', { has: page.getByRole('link', { name, exact: true }) });

/** Waits until the list shows exactly these products, in this order. */
const listShows = (page: Page, names: string[]) =>
  waitUntil(
    async () =>
      JSON.stringify(
        await page.locator('.product-table > tbody > tr > th > a').allTextContents(),
      ) === JSON.stringify(names),
    { what: `the list showing ${names.join(', ')}` },
  );

const focusedLabel = (page: Page) =>
  page.evaluate<string>(
    "document.activeElement.getAttribute('aria-label') || document.activeElement.id || document.activeElement.textContent",
  );

/** Waits until the keyboard's focus is on `label` (a control's label or id). */
const focusMovesTo = (page: Page, label: string) =>
  waitUntil(async () => (await focusedLabel(page)) === label, { what: `the focus on ${label}` });

describe('the products list', () => {
  it('keeps search and filters in the address: Back returns to the previous filter', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/products' });
    const { page } = s;
    await rowOf(page, 'Binoculars 8x42').waitFor();
    await expectReadableAndFitting(page);
    await saveScreenshot(page, 'shop-products-desktop');

    await page.getByLabel('State').selectOption({ label: 'Inactive only' });
    await page.waitForURL(/\/app\/products\?active=false$/);
    await listShows(page, ['Old collar']);

    await page.getByLabel('Stock', { exact: true }).selectOption({ label: 'Fewer than 10' });
    await page.waitForURL(/\?active=false&stock_below=10$/);
    await page.getByLabel('State').selectOption({ label: 'Active and inactive' });
    await page.getByLabel('Search (number, name, description)').fill('lead');
    await page.waitForURL(/\?q=lead&stock_below=10$/);
    await listShows(page, ['Red tracking lead']);

    await page.goBack();
    await page.waitForURL(/\?active=false&stock_below=10$/);
    // The address changes first; the filters follow it in the next render.
    await waitUntil(async () => (await page.getByLabel('State').inputValue()) === 'false', {
      what: 'the State filter back at "Inactive only"',
    });
    await expect(page.getByLabel('Search (number, name, description)').inputValue()).resolves.toBe(
      '',
    );
    await listShows(page, ['Old collar']);
    await s.close();
  });

  it('changes the stock in the row with a reason: the movements show it, the store API has the new stock', async () => {
    const id = catalogue.productId('Blue lead');
    const s = await signedInAt(browser, app, staff, { path: '/app/products?q=Blue' });
    const { page } = s;
    const row = rowOf(page, 'Blue lead');
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.toContain('10');
    await page.getByRole('button', { name: 'Change stock of Blue lead' }).click();

    // Without a reason: the sentence beside the reason field, nothing sent.
    await page.getByLabel('Amount').fill('-3');
    await page.getByRole('button', { name: 'Save stock change' }).click();
    await page.getByText('Give a reason (1 to 500 characters).').waitFor();
    await expect(page.getByLabel('Reason').getAttribute('aria-invalid')).resolves.toBe('true');
    // More than there is: the API's refusal as a sentence beside the amount.
    await page.getByLabel('Amount').fill('-30');
    await page.getByLabel('Reason').fill('Stocktake: three damaged');
    await page.getByRole('button', { name: 'Save stock change' }).click();
    await page.getByText('Only 10 in stock: you can take away at most that many.').waitFor();

    await page.getByLabel('Amount').fill('-3');
    await page.getByRole('button', { name: 'Save stock change' }).click();
    await page.getByText('Saved: the stock of Blue lead is now 7.').waitFor();
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.toContain('7');
    const movements = page.getByRole('table', { name: 'Latest stock movements of Blue lead' });
    const latest = movements.getByRole('row').nth(1);
    await latest.getByText('Stocktake: three damaged').waitFor();
    await expect(latest.textContent()).resolves.toMatch(/−3.*7.*Adjustment.*Sam Staff/);

    expect(await storeProduct(id)).toMatchObject({ status: 200, data: { stock: 7 } });

    // The product's page has every movement, the reason with them.
    await page.getByRole('link', { name: 'All movements of Blue lead' }).click();
    await page.getByRole('heading', { name: 'Blue lead', level: 2 }).waitFor();
    const all = page.getByRole('table', { name: 'Stock movements of Blue lead' });
    await all.getByText('Stocktake: three damaged').waitFor();
    await expect(all.getByRole('row').count()).resolves.toBe(3);
    await s.close();
  });

  it('changes price and stock in the row with the keyboard alone', async () => {
    const id = catalogue.productId('Dog bowl');
    const s = await signedInAt(browser, app, staff, { path: '/app/products?q=bowl' });
    const { page } = s;
    await rowOf(page, 'Dog bowl').waitFor();
    await page.getByLabel('Search (number, name, description)').focus();

    // Tab to the price: a new one typed, Enter saves it.
    await tabTo(page, `price-${id}`);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('11.25');
    await page.keyboard.press('Enter');
    await rowOf(page, 'Dog bowl').getByText('Saved', { exact: true }).waitFor();
    expect((await storeProduct(id)).data?.price).toBe(11.25);

    // Tab on to the stock's button; Enter opens the change with the amount focused.
    await tabTo(page, 'Change stock of Dog bowl');
    await page.keyboard.press('Enter');
    // The panel moves the focus once it is drawn, a frame after the key.
    await focusMovesTo(page, `stock-${id}-amount`);
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    await expect(focusedLabel(page)).resolves.toBe(`stock-${id}-reason`);
    await page.keyboard.type('Delivery received');
    await page.keyboard.press('Enter');
    await page.getByText('Saved: the stock of Dog bowl is now 105.').waitFor();
    expect((await storeProduct(id)).data?.stock).toBe(105);

    // Escape-free close: Tab to Cancel, Enter; the keyboard is back on the row's button.
    await tabTo(page, 'Cancel');
    await page.keyboard.press('Enter');
    await focusMovesTo(page, 'Change stock of Dog bowl');
    await s.close();
  });

  it('exports the filtered list as CSV, fetched with the session’s token', async () => {
    const s = await signedInAt(browser, app, staff, {
      path: '/app/products?active=true&q=lead',
    });
    const { page } = s;
    await rowOf(page, 'Red tracking lead').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await downloadedBytes(download))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('id,name,description,price,category_id,category_name,stock,active');
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[1])
        .sort(),
    ).toEqual(['Blue lead', 'Red tracking lead']);
    await page.getByText(`Export saved: ${download.suggestedFilename()}`).waitFor();
    await s.close();
  });
});

/** Presses Tab until the element with this aria-label (or id) has the focus. */
async function tabTo(page: Page, label: string, most = 40): Promise<void> {
  for (let i = 0; i < most; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedLabel(page)) === label) return;
  }
  throw new Error(`Tab never reached ${label}`);
}

describe('the product editor', () => {
  it('creates a product that the storefront lists, and deactivated it leaves the list', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/products' });
    const { page } = s;
    await page.getByRole('link', { name: 'New product' }).click();
    await page.waitForURL(/\/app\/products\/new$/);
    await page.getByRole('heading', { name: 'New product' }).waitFor();

    // Refusals: sentences beside their fields.
    await page.getByLabel('Price').fill('12.345');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page
      .getByText('Enter a name: not empty, and not longer than the field allows.')
      .waitFor();
    await page.getByLabel('Name').fill('Whistle 211.5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page
      .getByText('Enter a price from 0 to 99,999,999.99 with at most two decimals.')
      .waitFor();
    await expect(page.getByLabel('Price').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Description').fill('Buffalo horn whistle for recall');
    await page.getByLabel('Price').fill('24,50');
    await page.getByLabel('Category').selectOption({ label: '\u2003Leads' });
    await page.getByLabel('Opening stock').fill('12');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { name: 'Whistle 211.5', level: 2 }).waitFor();
    await page.getByText('The product is created. It is in the storefront now.').waitFor();
    const id = Number(/\/app\/products\/(\d+)$/.exec(page.url())?.[1]);
    expect(id).toBeGreaterThan(0);
    expect(await storeNames('Whistle 211.5')).toEqual(['Whistle 211.5']);
    await saveScreenshot(page, 'shop-product-desktop');
    expect(await storeProduct(id)).toMatchObject({
      status: 200,
      data: { price: 24.5, stock: 12 },
    });
    await page
      .getByRole('table', { name: 'Stock movements of Whistle 211.5' })
      .getByText('Product created')
      .waitFor();

    // Another product of the category with this name: the API's 409 beside the name.
    await createProduct({
      name: 'Whistle 211.5 twin',
      price: 1,
      category_id: catalogue.categoryId('Leads'),
    });
    await page.getByLabel('Name').fill('Whistle 211.5 twin');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByText('Another product in this category has this name: choose another name or category.')
      .waitFor();
    await page.getByLabel('Name').fill('Whistle 211.5');

    await page.getByLabel('Active').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    await page.getByText('Inactive: not in the storefront').waitFor();
    expect(await storeNames('Whistle 211.5')).toEqual(['Whistle 211.5 twin']);
    expect((await storeProduct(id)).status).toBe(404);
    await s.close();
  });

  it('shows a product name holding HTML as text: no element, no dialog, no CSP violation', async () => {
    const name = '<img src=x onerror=alert(1)> Harness';
    const product = await createProduct({ name, price: 5, stock: 2 });
    const s = await signedInAt(browser, app, staff, { path: '/app/products?q=Harness' });
    const { page } = s;
    await page.getByRole('link', { name, exact: true }).waitFor();
    await expect(page.locator('main img').count()).resolves.toBe(0);
    await page.getByRole('button', { name: `Change stock of ${name}` }).click();
    await page.getByRole('form', { name: `Change the stock of ${name}` }).waitFor();

    await page.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(new RegExp(`/app/products/${product.id}$`));
    await page.getByRole('heading', { name, exact: true, level: 2 }).waitFor();
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe(name);
    await expect(page.locator('main img').count()).resolves.toBe(0);
    expect(s.dialogs).toEqual([]);
    await s.close();
  });
});

describe('the import', () => {
  const HEADER = 'id,name,description,price,category_id,category_name,stock,active';

  async function choose(page: Page, name: string, text: string) {
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await page.getByRole('button', { name: 'Check the file' }).click();
  }

  it('offers no Apply for a file with a bad row; a good file applies', async () => {
    const leads = catalogue.categoryId('Leads');
    const binoculars = catalogue.productId('Binoculars 8x42');
    const s = await signedInAt(browser, app, staff, { path: '/app/products' });
    const { page } = s;
    await page.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import products' }).waitFor();

    await choose(
      page,
      'bad.csv',
      [HEADER, `,Import lead A,,12.90,${leads},,4,true`, `,Import lead B,,twelve,${leads},,4,true`]
        .join('\r\n')
        .concat('\r\n'),
    );
    await page.getByRole('heading', { name: 'Preview of the import' }).waitFor();
    await page.getByText(/^Checked: 1 problem\./).waitFor();
    const problems = page.getByRole('table', { name: 'Problems' });
    await expect(problems.getByRole('row').nth(1).textContent()).resolves.toBe(
      '3priceis not an amount with at most two decimals',
    );
    await expect(page.getByRole('button', { name: /Apply/ }).count()).resolves.toBe(0);
    await saveScreenshot(page, 'shop-products-import-desktop');

    await choose(
      page,
      'good.csv',
      [
        HEADER,
        `,Import lead A,,12.90,${leads},,4,true`,
        `,Import lead B,,13.90,${leads},,6,true`,
        `${binoculars},Binoculars 8x42,Bright optics for dusk,459.00,${catalogue.categoryId('Optics')},Optics,3,true`,
      ].join('\r\n'),
    );
    await page.getByText('Checked: 2 new, 1 changed, 0 unchanged, no problems.').waitFor();
    const rows = page.getByRole('table', { name: 'Rows of the file' });
    await expect(rows.getByRole('row').nth(3).textContent()).resolves.toBe(
      `4ChangedProduct ${binoculars}price`,
    );
    await page.getByRole('button', { name: 'Apply the import' }).click();
    await page.getByRole('heading', { name: 'Result of the import' }).waitFor();
    await page.getByText('Imported: 2 new, 1 changed, 0 unchanged.').waitFor();
    await expect(page.getByRole('button', { name: /Apply/ }).count()).resolves.toBe(0);

    const res = await app.request({ method: 'GET', url: '/admin/products?q=Import%20lead' });
    expect(
      res
        .json<{ data: StoreProduct[] }>()
        .data.map((p) => [p.name, p.price, p.stock])
        .sort(),
    ).toEqual([
      ['Import lead A', 12.9, 4],
      ['Import lead B', 13.9, 6],
    ]);
    expect((await storeProduct(binoculars)).data?.price).toBe(459);
    await s.close();
  });
});

describe('a viewer', () => {
  /** The names of the page's buttons, and its inputs outside the list's search form. */
  const controls = (page: Page) =>
    Promise.all([
      page.getByRole('button').allTextContents(),
      page
        .locator('input, select, textarea')
        .evaluateAll((fields) =>
          fields.filter((f) => !f.closest('form[role="search"]')).map((f) => f.outerHTML),
        ),
    ]);
  const ACCOUNT_BUTTONS = ['Change password', 'Sign out'];

  it('sees no write control on the products, a product and the categories; a forced write is 403', async () => {
    const id = catalogue.productId('Binoculars 8x42');
    const s = await signedInAt(browser, app, viewer, { path: '/app/products' });
    const { page } = s;
    await rowOf(page, 'Binoculars 8x42').waitFor();
    const [buttons, fields] = await controls(page);
    expect(buttons.sort()).toEqual([...ACCOUNT_BUTTONS, 'Export CSV'].sort());
    expect(fields).toEqual([]);
    await expect(page.getByRole('link', { name: 'New product' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Import', exact: true }).count()).resolves.toBe(0);

    await rowOf(page, 'Binoculars 8x42').getByRole('link').click();
    await page.getByRole('heading', { name: 'Binoculars 8x42', level: 2 }).waitFor();
    await page.getByRole('table', { name: 'Stock movements of Binoculars 8x42' }).waitFor();
    expect(await controls(page)).toEqual([ACCOUNT_BUTTONS, []]);

    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByText('Tracking leads').waitFor();
    expect(await controls(page)).toEqual([ACCOUNT_BUTTONS, []]);

    // From the console: the viewer's own token (signed in by hand), a write refused.
    const before = (await storeProduct(id)).data?.price;
    const status = await page.evaluate(
      async ([email, password, productId]) => {
        const login = await fetch('/admin/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
        const { token } = (await login.json()) as { token: string };
        const write = await fetch(`/admin/products/${productId}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ price: 1 }),
        });
        return write.status;
      },
      [viewer.email, STAFF_PASSWORD, id] as const,
    );
    expect(status).toBe(403);
    expect((await storeProduct(id)).data?.price).toBe(before);
    await s.close();
  });
});

describe('phone and dark scheme', () => {
  it('has enough contrast, labels and names at 360 px, light and dark, and nothing wider than the phone', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/products', device: 'phone' });
    const { page } = s;
    await rowOf(page, 'Binoculars 8x42').waitFor();
    await saveScreenshot(page, 'shop-products-phone');
    await page.getByRole('button', { name: 'Change stock of Binoculars 8x42' }).click();
    await page.getByRole('table', { name: 'Latest stock movements of Binoculars 8x42' }).waitFor();
    // Readable, labelled, named and within the phone's width in both schemes; the cards fit,
    // only the movements' table may scroll (inside its own .table-wrap).
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectReadableAndFitting(page);
    }
    await saveScreenshot(page, 'shop-products-phone-dark-stock');
    await s.close();
  });
});

describe('a long list', () => {
  it('shows 50 products at a time; "Load more products" adds the next page', async () => {
    const optics = catalogue.categoryId('Optics');
    const rows = Array.from(
      { length: 55 },
      (_, i) => `,Bulk lens ${String(i + 1).padStart(2, '0')},,1.00,${optics},,1,true`,
    );
    const res = await app.request({
      method: 'POST',
      url: '/admin/products/import?dry_run=false',
      headers: { 'content-type': 'text/csv' },
      payload: ['id,name,description,price,category_id,category_name,stock,active', ...rows].join(
        '\r\n',
      ),
    });
    expect(res.statusCode).toBe(200);

    const s = await signedInAt(browser, app, staff, { path: '/app/products?q=Bulk&sort=name' });
    const { page } = s;
    await page.getByText('50 of 55 products shown.').waitFor();
    await page.getByRole('button', { name: 'Load more products' }).click();
    await page.getByText('55 products.').waitFor();
    const names = await page.locator('.product-table > tbody > tr > th > a').allTextContents();
    expect(names).toEqual(rows.map((_, i) => `Bulk lens ${String(i + 1).padStart(2, '0')}`));
    await expect(page.getByRole('button', { name: 'Load more products' }).count()).resolves.toBe(0);
    // The button went with the last page: the keyboard goes on at the first product it added.
    await expect(page.evaluate<string>('document.activeElement.textContent')).resolves.toBe(
      'Bulk lens 51',
    );
    await s.close();
  });
});
