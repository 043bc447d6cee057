// The admin app's reviews (web/reviews/) in real headless Chromium against the real shop:
// reviews written through the storefront API by customers, one of them holding HTML, shown as
// text (no dialog, no element made of it, no CSP violation); the product filter in the URL; Hide
// and Restore changing the card at once and the storefront's public list with them; a viewer
// without either button; and the page on a phone in both schemes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { bearer, registerCustomer } from '../support/customers.js';
import { addProduct } from '../support/orders.js';
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

const SCRIPT_TITLE = '<script>alert(1)</script>';
const IMG_COMMENT = '<img src=x onerror=alert(1)>';

let app: ServedApp;
let browser: Browser;
let staff: SignedInStaffMember;
let viewer: SignedInStaffMember;
let lead: number;
let htmlReview: number;

async function postReview(
  product: number,
  first_name: string,
  review: { rating: number; title: string; comment: string },
): Promise<number> {
  const author = await registerCustomer(app, { first_name, last_name: 'Writer' });
  const res = await app.app.inject({
    method: 'POST',
    url: `/products/${product}/reviews`,
    headers: bearer(author.token),
    payload: review,
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.review_id as number;
}

/** The review ids the storefront shows for `product` (its public list). */
async function publicReviewIds(product: number): Promise<number[]> {
  const res = await app.request({ method: 'GET', url: `/products/${product}/reviews?limit=50` });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: { reviews: Array<{ id: number }> } }>().data.reviews.map((r) => r.id);
}

const titles = (page: Page) => page.locator('.review-list h3').allTextContents();

beforeAll(async () => {
  ({ app, browser, staff, viewer } = await openBrowserTest({
    staff: 'Mia Moderator',
    viewer: 'Vic Viewer',
  }));
  lead = await addProduct(app.app, 'Moderated lead', '20.00', 10);
  const bowl = await addProduct(app.app, 'Travel bowl', '9.50', 10);
  htmlReview = await postReview(lead, 'Ann', {
    rating: 2,
    title: SCRIPT_TITLE,
    comment: IMG_COMMENT,
  });
  await postReview(bowl, 'Ben', {
    rating: 5,
    title: 'Holds water',
    comment: 'Folds flat and holds water on long tracks.',
  });
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

describe('the reviews', () => {
  it('shows HTML in a review as text; filters by product; Hide and Restore change the card and the storefront’s list at once', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/reviews' });
    const { page } = s;
    const card = page.getByRole('article', { name: SCRIPT_TITLE });
    await card.waitFor();
    // Newest first.
    await expect(titles(page)).resolves.toEqual(['Holds water', SCRIPT_TITLE]);
    await expect(card.locator('.review-comment').textContent()).resolves.toBe(IMG_COMMENT);
    await expect(card.locator('.review-product').textContent()).resolves.toBe('Moderated lead');
    await expect(card.locator('.review-rating').textContent()).resolves.toBe('★★☆☆☆ 2 of 5 stars');
    await expect(card.locator('.review-meta').textContent()).resolves.toMatch(
      /^By Ann Writer, written /,
    );
    await expect(page.locator('main img, main script').count()).resolves.toBe(0);

    // The product filter: found by a part of its name, chosen, in the URL.
    await page.getByLabel('Find a product').fill('lead');
    await waitUntil(
      async () =>
        (await page.getByLabel('Product', { exact: true }).locator('option').count()) === 2,
      { what: 'the product matches' },
    );
    await page.getByLabel('Product', { exact: true }).selectOption({ label: 'Moderated lead' });
    await waitUntil(() => page.url().endsWith(`/app/reviews?product_id=${lead}`), {
      what: 'the filtered URL',
    });
    await page.getByRole('status').filter({ hasText: '1 review.' }).waitFor();
    await expect(titles(page)).resolves.toEqual([SCRIPT_TITLE]);
    expect(await publicReviewIds(lead)).toEqual([htmlReview]);

    // Hide: the card says so at once, and the storefront no longer lists it.
    await card.getByRole('button', { name: 'Hide' }).click();
    await card.getByRole('button', { name: 'Restore' }).waitFor();
    await expect(card.locator('.review-badge').textContent()).resolves.toBe('Hidden');
    await saveScreenshot(page, 'shop-reviews-desktop');
    await page
      .getByRole('status')
      .filter({ hasText: 'is hidden: the shop no longer shows it' })
      .waitFor();
    expect(await publicReviewIds(lead)).toEqual([]);

    // The hidden ones: there it is; Restore puts it back in the shop.
    await page.getByLabel('Shown or hidden').selectOption({ label: 'Hidden' });
    await waitUntil(() => page.url().endsWith(`/app/reviews?hidden=true&product_id=${lead}`), {
      what: 'the hidden filter in the URL',
    });
    await page.getByRole('status').filter({ hasText: '1 review.' }).waitFor();
    // With the keyboard this time; the focus stays on the button, now Hide.
    await card.getByRole('button', { name: 'Restore' }).focus();
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Hide' }).waitFor();
    await expect(
      card.getByRole('button', { name: 'Hide' }).evaluate((b) => b.matches(':focus')),
    ).resolves.toBe(true);
    await expect(card.locator('.review-badge').count()).resolves.toBe(0);
    expect(await publicReviewIds(lead)).toEqual([htmlReview]);

    expect(s.dialogs).toEqual([]);
    await s.close();
  });

  it('shows a viewer every review without Hide or Restore', async () => {
    const s = await signedInAt(browser, app, viewer, { path: '/app/reviews' });
    const { page } = s;
    await page.getByRole('article', { name: SCRIPT_TITLE }).waitFor();
    await expect(titles(page)).resolves.toEqual(['Holds water', SCRIPT_TITLE]);
    await expect(page.getByRole('button', { name: /^(Hide|Restore)/ }).count()).resolves.toBe(0);
    // No button at all in the section (the account bar's are its own).
    const section = page.getByRole('region', { name: 'Reviews' });
    await expect(section.locator('button').count()).resolves.toBe(0);
    expect(s.dialogs).toEqual([]);
    await s.close();
  });

  it.each(['light', 'dark'] as const)(
    'is readable and within the width on a phone in the %s scheme',
    async (colorScheme) => {
      const s = await signedInAt(browser, app, staff, {
        path: '/app/reviews',
        device: 'phone',
        colorScheme,
      });
      await s.page.getByRole('article', { name: SCRIPT_TITLE }).waitFor();
      await expectReadableAndFitting(s.page);
      await saveScreenshot(s.page, `shop-reviews-phone-${colorScheme}`);
      expect(s.dialogs).toEqual([]);
      await s.close();
    },
  );
});
