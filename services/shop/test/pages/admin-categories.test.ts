// The admin app's categories in real headless Chromium against the real shop: the tree as the
// storefront orders it, a child category created, moved among its siblings, edited (name and
// parent) and deactivated, each step shown in the tree and checked through the API; the page at
// 360 px in both schemes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { seedCatalogue } from '../support/catalogue.js';
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

let app: ServedApp;
let browser: Browser;
let staff: SignedInStaffMember;

beforeAll(async () => {
  ({ app, browser, staff } = await openBrowserTest({ staff: 'Sam Staff' }));
  await seedCatalogue(app.app);
}, 60_000);

afterAll(() => closeBrowserTest(app, browser));

/** A category's name, or its name and its children's, as the page's tree shows them. */
type Shown = string | [string, Shown[]];

/** The tree as the page shows it: names nested as the lists are. */
const shownTree = (page: Page) =>
  page.evaluate<Shown[]>(`(() => {
    const walk = (list) =>
      [...list.children].map((item) => {
        const name = item.querySelector(':scope > .category-line .category-name')?.textContent;
        const children = item.querySelector(':scope > ul');
        return children ? [name, walk(children)] : name;
      });
    // Not shown yet (still loading): no tree.
    const root = document.querySelector('.category-tree');
    return root ? walk(root) : [];
  })()`);

/** The id of the element with the keyboard's focus. */
const focusedId = (page: Page) => page.evaluate<string>('document.activeElement.id');

/** Waits until the keyboard's focus is on the element with this id (moved there after a render). */
const focusReaches = (page: Page, id: string) =>
  waitUntil(async () => (await focusedId(page)) === id, { what: `the focus on #${id}` });

const treeShows = (page: Page, tree: Shown[]) =>
  waitUntil(async () => JSON.stringify(await shownTree(page)) === JSON.stringify(tree), {
    what: `the tree ${JSON.stringify(tree)}`,
  });

interface ApiCategory {
  id: number;
  name: string;
  parent_id: number | null;
  sort_order: number;
  active: boolean;
}

async function adminCategory(name: string): Promise<ApiCategory | undefined> {
  const res = await app.request({ method: 'GET', url: '/admin/categories' });
  return res.json<{ data: ApiCategory[] }>().data.find((c) => c.name === name);
}

describe('the categories', () => {
  it('creates a child category, moves and edits it, deactivates it: the tree shows each step', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/categories' });
    const { page } = s;
    await treeShows(page, ['Optics', ['Dogs', [['Leads', ['Tracking leads']]]], 'Archive']);
    await page.getByText('inactive', { exact: true }).waitFor();

    // A child of Dogs, placed after Leads (position 1).
    const form = page.getByRole('form', { name: 'New category' });
    await form.getByRole('button', { name: 'Create category' }).click();
    await form
      .getByText('Enter a name: not empty, and not longer than the field allows.')
      .waitFor();
    await form.getByLabel('Name').fill('Harnesses');
    await form.getByLabel('Parent').selectOption({ label: 'Dogs' });
    await form.getByLabel('Position').fill('5');
    await form.getByLabel('Description').fill('Y-harnesses and vests');
    await form.getByRole('button', { name: 'Create category' }).click();
    await page.getByRole('status').getByText('Harnesses is created.').waitFor();
    await treeShows(page, [
      'Optics',
      ['Dogs', [['Leads', ['Tracking leads']], 'Harnesses']],
      'Archive',
    ]);
    const dogs = await adminCategory('Dogs');
    expect(await adminCategory('Harnesses')).toMatchObject({
      parent_id: dogs?.id,
      sort_order: 5,
      active: true,
    });
    // The form is empty for the next one.
    await expect(form.getByLabel('Name').inputValue()).resolves.toBe('');

    // Up among its siblings: before Leads; the button keeps the keyboard's place.
    await page.getByRole('button', { name: 'Move Harnesses up' }).click();
    await treeShows(page, [
      'Optics',
      ['Dogs', ['Harnesses', ['Leads', ['Tracking leads']]]],
      'Archive',
    ]);
    await page.getByRole('status').getByText('Harnesses moved up.').waitFor();
    expect((await adminCategory('Harnesses'))?.sort_order).toBe(1);
    expect((await adminCategory('Leads'))?.sort_order).toBe(5);
    const harnesses = (await adminCategory('Harnesses'))!.id;
    await focusReaches(page, `move-down-${harnesses}`);

    // A category's own subcategories are no parent it can choose.
    await page.getByRole('button', { name: 'Edit Dogs' }).click();
    const dogsForm = page.getByRole('form', { name: 'Edit Dogs' });
    const parents = await dogsForm.getByLabel('Parent').locator('option').allTextContents();
    expect(parents).toEqual(['None (top level)', 'Optics', 'Archive (inactive)']);
    await dogsForm.getByRole('button', { name: 'Cancel' }).click();

    // Renamed and moved under Optics.
    await page.getByRole('button', { name: 'Edit Harnesses' }).click();
    const edit = page.getByRole('form', { name: 'Edit Harnesses' });
    await focusReaches(page, `category-${harnesses}-name`);
    await edit.getByLabel('Name').fill('Harnesses & vests');
    await edit.getByLabel('Parent').selectOption({ label: 'Optics' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Changes to Harnesses & vests saved.').waitFor();
    await treeShows(page, [
      ['Optics', ['Harnesses & vests']],
      ['Dogs', [['Leads', ['Tracking leads']]]],
      'Archive',
    ]);

    // Deactivated: marked in the tree, gone from the storefront's categories.
    await page.getByRole('button', { name: 'Deactivate Harnesses & vests' }).click();
    await page.getByRole('status').getByText('Harnesses & vests is deactivated.').waitFor();
    await page.getByRole('button', { name: 'Reactivate Harnesses & vests' }).waitFor();
    await saveScreenshot(page, 'shop-categories-desktop');
    const store = await app.request({ method: 'GET', url: '/categories' });
    expect(store.json<{ data: ApiCategory[] }>().data.map((c) => c.name)).not.toContain(
      'Harnesses & vests',
    );
    expect(await adminCategory('Harnesses & vests')).toMatchObject({
      parent_id: (await adminCategory('Optics'))?.id,
      active: false,
    });
    await s.close();
  });

  it('has enough contrast, labels and names at 360 px, light and dark', async () => {
    const s = await signedInAt(browser, app, staff, { path: '/app/categories', device: 'phone' });
    const { page } = s;
    await page.getByRole('button', { name: 'Edit Tracking leads' }).waitFor();
    await saveScreenshot(page, 'shop-categories-phone');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectReadableAndFitting(page);
    }
    await saveScreenshot(page, 'shop-categories-phone-dark');
    await s.close();
  });
});
