// The catalogue's events (product.created, product.updated, and the stock events with their
// actor) written through their builders in a transaction of their own, as the back office's
// product routes write them: listed by the feed and delivered, signed, to a real receiver on
// 127.0.0.1 (verified with standardwebhooks' Webhook.verify). The worker polls once at start,
// then not for ten minutes: only the commit waking it (writeEvents) can make it send soon.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Product, ProductDetail, ShopEvent } from '@dogshop/contracts/shop';
import { Webhook } from 'standardwebhooks';
import {
  productBackInStockEvent,
  productCreatedEvent,
  productOutOfStockEvent,
  productUpdatedEvent,
} from '../src/modules/events/builders.js';
import { insertEvents } from '../src/modules/events/repository.js';
import { writeEvents } from '../src/modules/events/service.js';
import { createTestApp, webhookTestConfig, type TestApp } from './support/app.js';
import { addProduct } from './support/orders.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  arrivedAt: number;
}

let t: TestApp;
let server: http.Server;
let url = '';
const received: Received[] = [];

beforeAll(async () => {
  t = await createTestApp(webhookTestConfig({ pollIntervalMs: 600_000 }));
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        arrivedAt: Date.now(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The product as GET /products/{id} shows it, without its reviews: the public product DTO. */
async function shown(id: number): Promise<Product> {
  const res = await t.request({ url: `/products/${id}` });
  expect(res.statusCode).toBe(200);
  const { reviews: _reviews, ...product } = res.json().data as ProductDetail;
  return product;
}

const staff = { type: 'staff', id: 3, name: 'Mia Berger' } as const;
const key = { type: 'api_key', id: 7, name: 'ERP sync' } as const;

describe('catalogue events through their builders', () => {
  it('subscriptions can name the new types; the events reach the feed and the receiver, signed', async () => {
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      payload: {
        url,
        events: ['product.created', 'product.updated', 'product.out_of_stock'],
      },
    });
    expect(hook.statusCode).toBe(201);
    const secret = hook.json().data.secret as string;
    const head = (await t.request({ url: '/events?limit=500' })).json().data.next_after as number;
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the start's poll

    const id = await addProduct(t.app, 'Announced lead', '12.00', 5);
    const product = await shown(id);
    const changed = { ...product, price: 13.5, name: 'Announced lead, long' };
    const writtenAt = Date.now();
    // As the back office's routes will: the change and its events in one transaction.
    await writeEvents(t.app.db, (tx) =>
      insertEvents(tx, [
        productCreatedEvent(product, staff),
        // The fields in the order the builder gives them, whatever order they are named in.
        productUpdatedEvent(changed, ['name', 'price'], key),
        productUpdatedEvent(changed, [], key), // nothing changed: no event
        productOutOfStockEvent({ id, name: changed.name, stock: 0 }, staff),
        productBackInStockEvent({ id, name: changed.name, stock: 4 }, null),
      ]),
    );

    await until(() => received.length >= 3);
    // Woken by the commit, not by a poll (next in ten minutes).
    expect(received[0]!.arrivedAt - writtenAt).toBeLessThan(10_000);

    const feed = (await t.request({ url: `/events?after=${head}` })).json().data
      .events as ShopEvent[];
    expect(feed.map((e) => [e.type, e.data])).toEqual([
      ['product.created', { ...product, actor: staff }],
      ['product.updated', { ...changed, changes: ['price', 'name'], actor: key }],
      ['product.out_of_stock', { product_id: id, name: changed.name, stock: 0, actor: staff }],
      // No actor known: none at all.
      ['product.back_in_stock', { product_id: id, name: changed.name, stock: 4 }],
    ]);

    // The subscription's three types, each verified with its secret, its body the feed's
    // envelope, its webhook-id the event's id.
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing more arrives
    expect(received).toHaveLength(3);
    const delivered = received
      .map((r) => ({
        id: String(r.headers['webhook-id']),
        body: new Webhook(secret).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }),
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    const expected = feed
      .filter((e) => e.type !== 'product.back_in_stock')
      .map(({ id: eventId, type, timestamp, data }) => ({
        id: eventId,
        body: { type, timestamp, data },
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(delivered).toEqual(expected);
  });

  it('a transaction that rolls back leaves no event', async () => {
    const id = await addProduct(t.app, 'Never announced', '1.00', 1);
    const product = await shown(id);
    const before = await t.app.db.event.count();
    await expect(
      writeEvents(t.app.db, async (tx) => {
        await insertEvents(tx, [productCreatedEvent(product, staff)]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.app.db.event.count()).toBe(before);
  });
});
