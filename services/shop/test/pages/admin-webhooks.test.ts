// The webhook pages in real headless Chromium against the real shop with its delivery worker on,
// sending to a real receiver (node:http on 127.0.0.1) that checks every signature: a webhook made
// in the page (its secret shown once), a ping delivered and logged, a delivery the receiver
// refused retried once it works, the secret rotated (shown once; deliveries signed with the new
// one), deleting after a confirmation. On a phone, light and dark, contrast and names hold.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { webhookTestConfig } from '../support/app.js';
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

const WEBHOOKS = '/app/settings/webhooks';

interface Received {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A receiver on loopback answering `status`, recording every request. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.received.push({
        id: String(req.headers['webhook-id']),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: this.status,
      });
      res.writeHead(this.status).end();
    });
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/shop`;
  }

  /** The request's body, verified with `secret` (throws when no signature matches). */
  verified(request: Received, secret: string) {
    return new Webhook(secret).verify(request.body, {
      'webhook-id': request.id,
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { type: string; data: unknown };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let app: ServedApp;
let browser: Browser;
let admin: SignedInStaffMember;
const receiver = new Receiver();

beforeAll(async () => {
  // A refused attempt is retried only after a minute here: the page's Retry sends it sooner.
  [{ app, browser, admin }] = await Promise.all([
    openBrowserTest({ admin: 'Ada Admin' }, webhookTestConfig({ retryScheduleMs: [60_000] })),
    receiver.listen(),
  ]);
}, 60_000);

afterAll(async () => {
  await closeBrowserTest(app, browser);
  await receiver.close();
});

/** The log's row of the delivery `n`th in the table (newest first). */
const deliveryRows = (page: Page) =>
  page
    .getByRole('table', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader') });

const secretField = (page: Page) => page.getByRole('textbox', { name: 'Signing secret' });

/** A webhook made through the API (the test key), for the phone checks. */
async function apiWebhook(url: string) {
  const res = await app.request({
    method: 'POST',
    url: '/webhooks',
    payload: { url, events: ['order.created', 'review.created'], description: 'ERP' },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { id: number } }>().data;
}

describe('the webhook pages', () => {
  it('subscribes a real receiver, pings it, retries a refused delivery, and rotates the secret', async () => {
    const s = await signedInAt(browser, app, admin, { path: WEBHOOKS });
    const { page } = s;
    await page.getByText('0 webhooks').waitFor();

    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Address').fill(receiver.url);
    // Only chosen events, none chosen: the sentence beside the events.
    await form.getByRole('radio', { name: 'Only the events chosen here' }).check();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await form.getByText('Choose at least one event.').waitFor();
    await form.getByRole('radio', { name: /^Every event/ }).check();
    await form.getByLabel('Description (optional)').fill('Warehouse receiver');
    await form.getByRole('button', { name: 'Create webhook' }).click();

    await page.getByRole('heading', { name: 'Webhook created: its signing secret' }).waitFor();
    const secret = await secretField(page).inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
      'Every event',
      'Warehouse receiver',
      'Enabled',
    ]);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(secretField(page).count()).resolves.toBe(0);

    // Its page: a ping reaches the receiver, signed with the secret, and shows as delivered.
    await row.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: receiver.url }).waitFor();
    await page.getByText('No deliveries yet. Send a ping to try the address.').waitFor();
    await page.getByRole('button', { name: 'Send a ping' }).click();
    await page.getByText('Ping queued: its delivery shows in the log below.').waitFor();
    await waitUntil(() => receiver.received.length === 1, { what: 'the ping' });
    expect(receiver.verified(receiver.received[0]!, secret).type).toBe('webhook.ping');
    const first = deliveryRows(page).first();
    await first.getByRole('cell', { name: 'Delivered' }).waitFor();
    await expect(first.getByRole('rowheader').locator('code').textContent()).resolves.toBe(
      'webhook.ping',
    );
    await expect(first.getByRole('cell').nth(1).textContent()).resolves.toMatch(/^HTTP 200 · /);

    // The receiver fails: the delivery shows failed, with Retry; fixed, Retry delivers it.
    receiver.status = 500;
    await page.getByRole('button', { name: 'Send a ping' }).click();
    await waitUntil(() => receiver.received.length === 2, { what: 'the refused ping' });
    const refused = deliveryRows(page).first();
    await refused.getByRole('cell', { name: /^Failed, next try / }).waitFor();
    await expect(refused.getByRole('cell').nth(1).textContent()).resolves.toMatch(/^HTTP 500 · /);
    await expect(deliveryRows(page).nth(1).getByRole('button').count()).resolves.toBe(0);
    receiver.status = 200;
    await refused.getByRole('button', { name: /^Retry webhook\.ping of / }).click();
    await waitUntil(() => receiver.received.length === 3, { what: 'the retried ping' });
    expect(receiver.received[2]!.id).toBe(receiver.received[1]!.id);
    await refused.getByRole('cell', { name: 'Delivered' }).waitFor();
    await expect(refused.getByRole('button').count()).resolves.toBe(0);
    await refused.getByText('All 2 attempts').click();
    await expect(refused.getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^HTTP 500 · /),
      expect.stringMatching(/^HTTP 200 · /),
    ]);

    // The filter is the URL's: only the failed-and-given-up ones (none), then all again.
    await page.getByLabel('Outcome').selectOption({ label: 'Failed, not retried' });
    await page.getByText('No deliveries with this outcome.').waitFor();
    expect(new URL(page.url()).search).toBe('?outcome=failed');
    await page.goBack();
    await deliveryRows(page).nth(1).waitFor();
    await expect(deliveryRows(page).count()).resolves.toBe(2);
    await expect(page.getByLabel('Outcome').inputValue()).resolves.toBe('');

    // A new secret, shown once; the next delivery is signed with it.
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'New signing secret' }).waitFor();
    const rotated = await secretField(page).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(secretField(page).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Send a ping' }).click();
    await waitUntil(() => receiver.received.length === 4, { what: 'the ping after rotating' });
    expect(receiver.verified(receiver.received[3]!, rotated).type).toBe('webhook.ping');
    expect(await page.content()).not.toContain(rotated);
    await s.close();
  });

  it('changes the settings, and deletes a webhook after a confirmation', async () => {
    const hook = await apiWebhook('http://127.0.0.1:9/old');
    const s = await signedInAt(browser, app, admin, { path: `${WEBHOOKS}/${hook.id}` });
    const { page } = s;
    const settings = page.getByRole('form', { name: 'Settings' });
    await expect(
      settings.getByRole('checkbox', { name: /^A review is written/ }).isChecked(),
    ).resolves.toBe(true);
    await settings.getByLabel('Address').fill(receiver.url);
    await settings.getByRole('checkbox', { name: /^Enabled/ }).uncheck();
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: receiver.url }).waitFor();
    const saved = (await app.request({ method: 'GET', url: `/webhooks/${hook.id}` })).json().data;
    expect(saved).toMatchObject({ url: receiver.url, enabled: false });

    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete webhook' })
      .click();
    await page.getByRole('heading', { name: 'Webhook deleted' }).waitFor();
    expect((await app.request({ method: 'GET', url: `/webhooks/${hook.id}` })).statusCode).toBe(
      404,
    );
    await s.close();
  });

  it('keeps its contrast and names on a phone, light and dark', async () => {
    const hook = await apiWebhook(receiver.url);
    receiver.status = 500;
    const ping = await app.request({ method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect(ping.statusCode).toBe(202);
    const count = receiver.received.length;
    await waitUntil(() => receiver.received.length > count, { what: 'the ping' });
    for (const colorScheme of ['light', 'dark'] as const) {
      const s = await signedInAt(browser, app, admin, {
        path: WEBHOOKS,
        device: 'phone',
        colorScheme,
      });
      const { page } = s;
      // The list, then (its link) the webhook's page with a refused delivery and its Retry.
      for (const shown of ['list', 'webhook']) {
        if (shown === 'list') {
          await page.getByRole('link', { name: receiver.url }).last().waitFor();
        } else {
          await page.getByRole('link', { name: receiver.url }).last().click();
          await deliveryRows(page)
            .first()
            .getByRole('button', { name: /^Retry/ })
            .waitFor();
        }
        await expectReadableAndFitting(page);
      }
      if (colorScheme === 'light') await saveScreenshot(page, 'shop-webhook-phone');
      await s.close();
    }
    receiver.status = 200;
  });
});
