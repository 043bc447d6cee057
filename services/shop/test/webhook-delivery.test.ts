// Webhook delivery end to end: the real app's worker sends to a real receiver on 127.0.0.1 that
// verifies every delivery with standardwebhooks' Webhook.verify. Timings are shortened through
// the config (webhookTestConfig): polls every 20 ms, retries after 50, 100, 200 ms.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ShopEvent } from '@dogshop/contracts/shop';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { SEQUENCER_LOCK } from '../src/modules/events/repository.js';
import { sealSecret } from '../src/modules/webhooks/secrets.js';
import { buildApp } from '../src/app.js';
import {
  TEST_API_KEY,
  createTestApp,
  testConfig,
  webhookTestConfig,
  type TestApp,
} from './support/app.js';
import { bearer, registerCustomer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** What the receiver answered. */
  status: number;
  /** When the request had arrived and when it was answered (ms since the epoch). */
  arrivedAt: number;
  answeredAt: number;
}

/**
 * A receiver on loopback: answers `answer()` (a status, a status after a while, or 'hang' to
 * never answer).
 */
class Receiver {
  readonly received: Received[] = [];
  connections = 0;
  /** Requests arrived and not yet answered, now and at most. */
  open = 0;
  maxOpen = 0;
  answer: () => number | 'hang' | { status: number; afterMs: number } = () => 200;
  private server: http.Server | undefined;
  port = 0;

  async listen(port = 0): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const arrivedAt = Date.now();
        const answer = this.answer();
        if (answer === 'hang') return;
        const { status, afterMs } =
          typeof answer === 'number' ? { status: answer, afterMs: 0 } : answer;
        this.open++;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        setTimeout(() => {
          this.open--;
          this.received.push({
            id: String(req.headers['webhook-id']),
            timestamp: String(req.headers['webhook-timestamp']),
            signature: String(req.headers['webhook-signature']),
            body: Buffer.concat(chunks).toString('utf8'),
            status,
            arrivedAt,
            answeredAt: Date.now(),
          });
          res.writeHead(status).end('ok');
        }, afterMs);
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Verified with the secret (throws if no signature matches); the parsed body. */
  verified(secret: string): Array<{ id: string; type: string; timestamp: string; data: unknown }> {
    return this.received
      .filter((r) => r.status < 300)
      .map((r) => {
        const body = new Webhook(secret).verify(r.body, {
          'webhook-id': r.id,
          'webhook-timestamp': r.timestamp,
          'webhook-signature': r.signature,
        }) as { type: string; timestamp: string; data: unknown };
        return { id: r.id, ...body };
      });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function subscribe(t: TestApp, url: string, events: string[] = ['*']) {
  const res = await t.request({ method: 'POST', url: '/webhooks', payload: { url, events } });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; secret: string };
}

async function feedAll(t: TestApp): Promise<ShopEvent[]> {
  const res = await t.request({ method: 'GET', url: '/events?limit=500' });
  return res.json().data.events as ShopEvent[];
}

const place = async (t: TestApp, productId: number, quantity = 1, price = 1) => {
  const res = await t.request({
    method: 'POST',
    url: '/orders',
    payload: orderBody([{ product_id: productId, quantity, price }]),
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.order_id as number;
};

/** A replica of `t`'s shop with its delivery worker running (`webhooks` on top of t's). */
async function deliveringReplica(
  t: TestApp,
  webhooks: Partial<TestApp['config']['webhooks']> = {},
) {
  const replica = await buildApp({
    ...t.config,
    webhooks: { ...t.config.webhooks, deliver: true, ...webhooks },
  });
  await replica.ready();
  return replica;
}

/** Queues `count` pings of a webhook (deliveries due at once). */
async function queuePings(t: TestApp, webhookId: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const ping = await t.request({ method: 'POST', url: `/webhooks/${webhookId}/ping` });
    expect(ping.statusCode).toBe(202);
  }
}

describe('every event type, from the real operations, signed', () => {
  let t: TestApp;
  const all = new Receiver();
  const ordersOnly = new Receiver();
  beforeAll(async () => {
    t = await createTestApp(webhookTestConfig());
    await all.listen();
    await ordersOnly.listen();
  });
  afterAll(async () => {
    await t.close();
    await all.close();
    await ordersOnly.close();
  });

  it('delivers each event to the subscriptions that want it, verified, with the event id as webhook-id', async () => {
    const hook = await subscribe(t, all.url);
    const orders = await subscribe(t, ordersOnly.url, ['order.created']);
    const product = await addProduct(t.app, 'Delivered lead', '1.00', 1);
    const orderId = await place(t, product);
    await t.request({ method: 'PUT', url: `/orders/${orderId}`, payload: { status: 'cancelled' } });
    const customer = await registerCustomer(t);
    const review = await t.request({
      method: 'POST',
      url: `/products/${product}/reviews`,
      payload: { rating: 5, title: 'Great', comment: 'Holds up in wet heather.' },
      headers: bearer(customer.token),
    });
    expect(review.statusCode).toBe(201);
    const ping = await t.request({ method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect(ping.statusCode).toBe(202);

    await until(() => all.received.length >= 6);
    const feed = await feedAll(t);
    expect(feed.map((e) => e.type)).toEqual([
      'order.created',
      'product.out_of_stock',
      'order.status_changed',
      'product.back_in_stock',
      'review.created',
    ]);
    const delivered = all.verified(hook.secret);
    // Each feed event exactly once, its body the feed's (type, timestamp, data).
    for (const event of feed) {
      expect(delivered.filter((d) => d.id === event.id)).toEqual([
        { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data },
      ]);
    }
    expect(delivered.filter((d) => d.type === 'webhook.ping')).toEqual([
      {
        id: ping.json().data.event_id,
        type: 'webhook.ping',
        timestamp: expect.any(String),
        data: { webhook_id: hook.id },
      },
    ]);
    expect(delivered).toHaveLength(6);

    await until(() => ordersOnly.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ordersOnly.verified(orders.secret).map((d) => d.type)).toEqual(['order.created']);
    // Another subscription's secret verifies none of them.
    expect(() => ordersOnly.verified(hook.secret)).toThrow();

    // Recorded after the receiver answered: waited for, not assumed.
    const deliveredLog = () =>
      t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries?outcome=delivered` });
    await until(async () => (await deliveredLog()).json().data.pagination.total === 6);
    const log = await deliveredLog();
    expect(log.json().data.pagination.total).toBe(6);
    expect(log.json().data.deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      log: [{ status_code: 200, error: null, duration_ms: expect.any(Number) }],
    });
  });

  it('retry sends a delivery again with the same webhook-id', async () => {
    const hook = (await t.request({ method: 'GET', url: '/webhooks' })).json().data[0] as {
      id: number;
    };
    const page = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries?limit=1` });
    const delivery = page.json().data.deliveries[0] as { id: number; event_id: string };
    const before = all.received.length;
    const res = await t.request({
      method: 'POST',
      url: `/webhooks/${hook.id}/deliveries/${delivery.id}/retry`,
    });
    expect(res.statusCode).toBe(202);
    await until(() => all.received.length > before);
    expect(all.received.at(-1)!.id).toBe(delivery.event_id);
  });
});

describe('a receiver that fails, then refuses connections, then is back', () => {
  let t: TestApp;
  const receiver = new Receiver();
  beforeAll(async () => {
    t = await createTestApp(webhookTestConfig());
    await receiver.listen();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('gets every event, a duplicate only after a failed attempt, with the same webhook-id', async () => {
    const hook = await subscribe(t, receiver.url, ['order.created']);
    const product = await addProduct(t.app, 'Outage lead', '1.00', 1000);
    // 500s for a while.
    receiver.answer = () => 500;
    for (let i = 0; i < 10; i++) await place(t, product);
    await until(() => receiver.received.length >= 20);
    // Then nobody listens.
    const port = receiver.port;
    await receiver.close();
    for (let i = 0; i < 10; i++) await place(t, product);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Back.
    receiver.answer = () => 200;
    await receiver.listen(port);
    const feed = await feedAll(t);
    expect(feed).toHaveLength(20);
    await until(() => new Set(receiver.verified(hook.secret).map((d) => d.id)).size === 20, 20_000);

    const delivered = receiver.verified(hook.secret);
    expect(new Set(delivered.map((d) => d.id))).toEqual(new Set(feed.map((e) => e.id)));
    // Exactly one acknowledged attempt per event; every other request for it was answered 500
    // before that one.
    for (const event of feed) {
      const requests = receiver.received.filter((r) => r.id === event.id);
      expect(requests.at(-1)!.status).toBe(200);
      expect(requests.slice(0, -1).every((r) => r.status === 500)).toBe(true);
    }
    const log = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries?limit=50` });
    const attempts = (
      log.json().data.deliveries as Array<{
        log: Array<{ status_code: number | null; error: string | null }>;
      }>
    ).flatMap((d) => d.log);
    expect(attempts.some((a) => a.status_code === 500)).toBe(true);
    expect(attempts.some((a) => a.error?.startsWith('ECONNREFUSED'))).toBe(true);
    // The receiver saw each 200 before the worker recorded it: none stays pending.
    const pending = async () =>
      (
        await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries?outcome=pending` })
      ).json().data.pagination.total as number;
    await until(async () => (await pending()) === 0);
  });
});

describe('secret rotation', () => {
  let t: TestApp;
  const receiver = new Receiver();
  beforeAll(async () => {
    t = await createTestApp(webhookTestConfig());
    await receiver.listen();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('signs with both secrets during the overlap, only the new one after', async () => {
    const hook = await subscribe(t, receiver.url, ['order.created']);
    const product = await addProduct(t.app, 'Rotated lead', '1.00', 100);
    const rotated = await t.request({ method: 'POST', url: `/webhooks/${hook.id}/rotate-secret` });
    const secret = rotated.json().data.secret as string;
    await place(t, product);
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.signature.split(' ')).toHaveLength(2);
    expect(receiver.verified(secret)).toHaveLength(1);
    expect(receiver.verified(hook.secret)).toHaveLength(1);

    // The overlap ends (24 hours, moved into the past here).
    await t.app.db.webhook.update({
      where: { id: hook.id },
      data: { previousSecretUntil: new Date(Date.now() - 1000) },
    });
    receiver.received.length = 0;
    await place(t, product);
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.signature.split(' ')).toHaveLength(1);
    expect(receiver.verified(secret)).toHaveLength(1);
    expect(() => receiver.verified(hook.secret)).toThrow();
  });
});

describe('isolation, disabling, and the address check at delivery', () => {
  it('a receiver that never answers delays no other, even with a backlog', async () => {
    // The backlog is made with no worker running: 40 deliveries to a receiver that never
    // answers, then 5 to one that does, all due at once when the worker (a replica on the same
    // database) starts.
    const t = await createTestApp();
    const stuck = new Receiver();
    const quick = new Receiver();
    await stuck.listen();
    await quick.listen();
    const open = { ...t.config, ...webhookTestConfig({ timeoutMs: 8_000 }) };
    const allowed = {
      ...t.config,
      webhooks: { ...t.config.webhooks, ...open.webhooks, deliver: false },
    };
    const registrar = await buildApp(allowed);
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      stuck.answer = () => 'hang';
      const post = (url: string) =>
        registrar.inject({
          method: 'POST',
          url: '/webhooks',
          headers: { 'x-api-key': TEST_API_KEY },
          payload: { url, events: ['order.created'] },
        });
      expect((await post(stuck.url)).statusCode).toBe(201);
      const product = await addProduct(t.app, 'Isolated lead', '1.00', 100);
      for (let i = 0; i < 40; i++) await place(t, product);
      await feedAll(t); // numbers them: 40 deliveries queued
      const hook = (await post(quick.url)).json().data as { secret: string };
      for (let i = 0; i < 5; i++) await place(t, product);
      await feedAll(t);

      replica = await buildApp(open);
      await replica.ready();
      const started = Date.now();
      // Sooner than the stuck receiver's time-out: nothing waited for it.
      await until(() => quick.received.length === 5, 6_000);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(quick.verified(hook.secret)).toHaveLength(5);
    } finally {
      // The stuck receiver first, so that the replica does not wait out its attempts.
      await stuck.close();
      await replica?.close();
      await registrar.close();
      await t.close();
      await quick.close();
    }
  });

  it('a subscription failing for longer than allowed is disabled with the reason', async () => {
    const t = await createTestApp(webhookTestConfig({ disableAfterMs: 300 }));
    const receiver = new Receiver();
    await receiver.listen();
    try {
      receiver.answer = () => 503;
      const hook = await subscribe(t, receiver.url, ['order.created']);
      const product = await addProduct(t.app, 'Failing lead', '1.00', 100);
      await place(t, product);
      await until(async () => {
        const res = await t.request({ method: 'GET', url: `/webhooks/${hook.id}` });
        return res.json().data.enabled === false;
      });
      const shown = (await t.request({ method: 'GET', url: `/webhooks/${hook.id}` })).json().data;
      expect(shown.disabled_reason).toMatch(/^deliveries failed since .* \(last: status 503\)$/);
      const failed = await t.request({
        method: 'GET',
        url: `/webhooks/${hook.id}/deliveries?outcome=failed`,
      });
      expect(failed.json().data.pagination.total).toBe(1);

      // Re-enabled: its deliveries are due again, and now acknowledged.
      receiver.answer = () => 200;
      await t.request({ method: 'PATCH', url: `/webhooks/${hook.id}`, payload: { enabled: true } });
      await until(() => receiver.received.some((r) => r.status === 200));
      const again = (await t.request({ method: 'GET', url: `/webhooks/${hook.id}` })).json().data;
      expect(again).toMatchObject({ enabled: true, disabled_reason: null });
      // Counted: the failed attempts, the disabling, the acknowledged attempt.
      let metrics = '';
      const sample = (series: string) =>
        Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(metrics)?.[1]);
      await until(async () => {
        metrics = (await t.app.inject({ url: '/metrics' })).body;
        return sample('webhook_delivery_attempts_total{outcome="delivered"}') === 1;
      });
      expect(sample('webhook_delivery_attempts_total{outcome="failed"}')).toBeGreaterThanOrEqual(1);
      expect(sample('webhook_delivery_attempts_total{outcome="delivered"}')).toBe(1);
      expect(sample('webhook_subscriptions_disabled_total')).toBe(1);
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('without WEBHOOK_ALLOW_PRIVATE_TARGETS a target that now resolves to loopback gets no connection', async () => {
    const t = await createTestApp(webhookTestConfig({ allowPrivateTargets: false }));
    const receiver = new Receiver();
    await receiver.listen();
    try {
      // As if its name had resolved to a public address when it was registered.
      const hook = await t.app.db.webhook.create({
        data: {
          url: `http://localhost:${receiver.port}/hook`,
          events: ['*'],
          secret: sealSecret(t.config.webhooks.secretKey, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
        },
      });
      const product = await addProduct(t.app, 'Guarded lead', '1.00', 100);
      await place(t, product);
      await until(async () => {
        const res = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
        return (res.json().data.deliveries[0]?.attempts ?? 0) >= 2;
      });
      expect(receiver.connections).toBe(0);
      const log = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
      expect(log.json().data.deliveries[0].log[0]).toMatchObject({
        status_code: null,
        error: expect.stringMatching(/127\.0\.0\.1|::1|private|not allowed/i),
      });
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe('redirects', () => {
  it('are not followed: a 3xx is a failed attempt, and its target gets no connection', async () => {
    const t = await createTestApp(webhookTestConfig({ retryScheduleMs: [60_000] }));
    const target = new Receiver();
    await target.listen();
    const redirecting = http.createServer((_req, res) =>
      res.writeHead(302, { location: target.url }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      const hook = await subscribe(t, `http://127.0.0.1:${port}/hook`, ['order.created']);
      await place(t, await addProduct(t.app, 'Redirected lead', '1.00', 10));
      let log: Array<{ status_code: number | null }> = [];
      await until(async () => {
        const res = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
        log = res.json().data.deliveries[0]?.log ?? [];
        return log.length === 1;
      });
      expect(log[0]!.status_code).toBe(302);
      expect(target.connections).toBe(0);
    } finally {
      await t.close();
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
      await target.close();
    }
  });
});

describe('retention', () => {
  it('the worker deletes events older than EVENT_RETENTION_DAYS, never the newest', async () => {
    const t = await createTestApp();
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const day = 24 * 3600_000;
      const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day);
      const data = { product_id: 1, name: 'old', stock: 0 };
      await t.app.db.event.createMany({
        data: [40, 31, 29, 1].map((daysAgo) => ({
          type: 'product.out_of_stock',
          occurredAt: at(daysAgo),
          data,
        })),
      });
      // The newest by number is old too: it stays, so numbering goes on from it.
      await t.app.db.event.create({
        data: { type: 'product.back_in_stock', occurredAt: at(50), data },
      });
      expect(await feedAll(t)).toHaveLength(5);
      replica = await buildApp({ ...t.config, ...webhookTestConfig({ eventRetentionDays: 30 }) });
      await replica.ready();
      await until(async () => (await feedAll(t)).length === 3);
      const kept = await feedAll(t);
      expect(kept.map((e) => e.sequence)).toEqual([3, 4, 5]);
    } finally {
      await replica?.close();
      await t.close();
    }
  });
});

describe('two replicas on one database', () => {
  it('deliver a burst of orders: every event once, none by both', async () => {
    // This app registers and orders; the replicas deliver.
    const t = await createTestApp(webhookTestConfig({ deliver: false }));
    const receiver = new Receiver();
    await receiver.listen();
    const config = { ...t.config, webhooks: { ...t.config.webhooks, deliver: true } };
    const replicas = [await buildApp(config), await buildApp(config)];
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      await Promise.all(replicas.map((r) => r.ready()));
      const product = await addProduct(t.app, 'Burst lead', '1.00', 10_000);
      const orders = 300;
      for (let i = 0; i < orders; i += 20) {
        await Promise.all(Array.from({ length: 20 }, () => place(t, product)));
      }
      await until(() => receiver.received.length >= orders, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const delivered = receiver.verified(hook.secret);
      // Every attempt was acknowledged, so any second request for an event would be a replica
      // sending what the other had claimed.
      expect(delivered).toHaveLength(orders);
      expect(new Set(delivered.map((d) => d.id)).size).toBe(orders);
      // Recorded after the receiver answered: waited for, then counted.
      const attempts = () => t.app.db.deliveryAttempt.count();
      await until(async () => (await attempts()) >= orders);
      expect(await attempts()).toBe(orders);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
      await t.close();
      await receiver.close();
    }
  });
});

describe('woken by commits', () => {
  it('sends the events of an order, a status change and a review at once, not at the next poll', async () => {
    // The worker polls once at start, then not for ten minutes: only the write's answer waking
    // it can make it number and send the events soon.
    const t = await createTestApp(webhookTestConfig({ pollIntervalMs: 600_000 }));
    const receiver = new Receiver();
    await receiver.listen();
    try {
      const hook = await subscribe(t, receiver.url);
      const product = await addProduct(t.app, 'Woken lead', '1.00', 10);
      const customer = await registerCustomer(t);
      await pause(300); // past the start's poll
      let orderId = 0;
      // Each write answers 2xx (place checks its own).
      const writes: Array<[string, () => Promise<{ statusCode: number } | number>]> = [
        ['order.created', async () => (orderId = await place(t, product))],
        [
          'order.status_changed',
          () =>
            t.request({
              method: 'PUT',
              url: `/orders/${orderId}`,
              payload: { status: 'confirmed' },
            }),
        ],
        [
          'review.created',
          () =>
            t.request({
              method: 'POST',
              url: `/products/${product}/reviews`,
              payload: { rating: 4, title: 'Quick', comment: 'Arrived before the poll.' },
              headers: bearer(customer.token),
            }),
        ],
      ];
      for (const [i, [type, write]] of writes.entries()) {
        const writtenAt = Date.now();
        const answer = await write();
        if (typeof answer !== 'number') expect(answer.statusCode).toBeLessThan(300);
        await until(() => receiver.received.length > i);
        expect(receiver.received[i]!.arrivedAt - writtenAt).toBeLessThan(10_000);
        expect((JSON.parse(receiver.received[i]!.body) as { type: string }).type).toBe(type);
      }
      expect(receiver.verified(hook.secret)).toHaveLength(3);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe('the caps are on attempts in flight', () => {
  it('a backlog of one subscription goes as fast as its receiver answers: 4 at once, 16 once it answers quickly', async () => {
    // 60 deliveries queued with no worker running; then a worker that polls only once a second.
    // One claim of 4 per poll would need 15 s; claiming again as each attempt ends, with 4 and
    // then (the receiver answered 2xx within a second) 16 in flight, takes about one.
    const t = await createTestApp(webhookTestConfig({ deliver: false }));
    const receiver = new Receiver();
    await receiver.listen();
    receiver.answer = () => ({ status: 200, afterMs: 150 });
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      const product = await addProduct(t.app, 'Backlogged lead', '1.00', 1000);
      for (let i = 0; i < 60; i += 10) {
        await Promise.all(Array.from({ length: 10 }, () => place(t, product)));
      }
      await feedAll(t); // numbers them: 60 deliveries queued
      replica = await deliveringReplica(t, { pollIntervalMs: 1_000 });
      const started = Date.now();
      await until(() => receiver.received.length >= 60, 10_000);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(new Set(receiver.verified(hook.secret).map((d) => d.id)).size).toBe(60);
      // Before the first answer: 4 sent. Then 16 at once, never more.
      const firstAnswer = Math.min(...receiver.received.map((r) => r.answeredAt));
      expect(receiver.received.filter((r) => r.arrivedAt < firstAnswer)).toHaveLength(4);
      expect(receiver.maxOpen).toBe(16);
    } finally {
      await replica?.close();
      await t.close();
      await receiver.close();
    }
  });

  it('a receiver that answers in more than a second keeps 4 at once', async () => {
    const t = await createTestApp(webhookTestConfig({ deliver: false }));
    const receiver = new Receiver();
    await receiver.listen();
    receiver.answer = () => ({ status: 200, afterMs: 1_100 });
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      await queuePings(t, hook.id, 12);
      replica = await deliveringReplica(t);
      await until(() => receiver.received.length >= 12, 10_000);
      expect(new Set(receiver.verified(hook.secret).map((d) => d.id)).size).toBe(12);
      expect(receiver.maxOpen).toBe(4);
    } finally {
      await replica?.close();
      await t.close();
      await receiver.close();
    }
  });
});

describe('the caps across subscriptions', () => {
  it('at most 32 requests at once from a replica, 4 per subscription before it has answered', async () => {
    // 10 subscriptions with 6 pings each queued, no worker running; each receiver answers after
    // 300 ms. 10 × 4 would be 40 at once: the replica's cap of 32 holds.
    const t = await createTestApp(webhookTestConfig({ deliver: false }));
    const receivers = Array.from({ length: 10 }, () => new Receiver());
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      for (const receiver of receivers) {
        await receiver.listen();
        receiver.answer = () => ({ status: 200, afterMs: 300 });
        const hook = await subscribe(t, receiver.url, ['order.created']);
        await queuePings(t, hook.id, 6);
      }
      replica = await deliveringReplica(t);
      const all = () => receivers.flatMap((r) => r.received);
      await until(() => all().length >= 60, 20_000);
      // The most requests open at once, over all receivers.
      const edges = all()
        .flatMap((r) => [
          [r.arrivedAt, 1],
          [r.answeredAt, -1],
        ])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      let open = 0;
      let most = 0;
      for (const [, change] of edges) most = Math.max(most, (open += change!));
      expect(most).toBe(32);
      // Until a receiver's first answer reached the replica, at most 4 were sent to it (a 2xx
      // within a second then raises its own cap to 16, so later it may hold more than 4).
      const beforeFirstAnswer = receivers.map((receiver) => {
        const firstAnswer = Math.min(...receiver.received.map((r) => r.answeredAt));
        return receiver.received.filter((r) => r.arrivedAt < firstAnswer).length;
      });
      expect(Math.max(...beforeFirstAnswer)).toBe(4);
      expect(Math.max(...receivers.map((r) => r.maxOpen))).toBeLessThanOrEqual(16);
      expect(new Set(all().map((r) => r.id)).size).toBe(60);
    } finally {
      await replica?.close();
      await t.close();
      for (const receiver of receivers) await receiver.close();
    }
  });
});

describe('claims and late attempts', () => {
  /** The deliveries of a webhook as stored, with the claim. */
  const stored = (t: TestApp, webhookId: number) =>
    t.app.db.webhookDelivery.findMany({
      where: { webhookId },
      select: { id: true, status: true, attempts: true, nextAttemptAt: true, claimedUntil: true },
      orderBy: { id: 'asc' },
    });

  it('an attempt that outlives its claim is not recorded: the attempt of the next claim decides', async () => {
    // The claim lasts 1 s; the receiver holds the first request 3 s and answers it 500, and
    // answers the next one (the same event, claimed again when the first claim ran out) 200.
    const t = await createTestApp(
      webhookTestConfig({ claimLeaseMs: 1_000, timeoutMs: 5_000, retryScheduleMs: [60_000] }),
    );
    const receiver = new Receiver();
    await receiver.listen();
    let requests = 0;
    receiver.answer = () => (++requests === 1 ? { status: 500, afterMs: 3_000 } : 200);
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      await place(t, await addProduct(t.app, 'Late lead', '1.00', 10));
      await until(() => receiver.received.length === 2);
      // The late 500 came last, and changed nothing.
      expect(receiver.received.map((r) => r.status)).toEqual([200, 500]);
      // Once the worker has counted the late answer (a failed attempt), the state is final.
      const metrics = async () => (await t.app.inject({ url: '/metrics' })).body;
      const failed = /^webhook_delivery_attempts_total\{outcome="failed"\} (\d+)$/m;
      await until(async () => Number(failed.exec(await metrics())?.[1] ?? 0) > 0);
      expect(failed.exec(await metrics())?.[1]).toBe('1');
      const [delivery] = await stored(t, hook.id);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, claimedUntil: null });
      const log = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
      expect(log.json().data.deliveries[0].log).toEqual([
        expect.objectContaining({ status_code: 200 }),
      ]);
      const row = await t.app.db.webhook.findUniqueOrThrow({ where: { id: hook.id } });
      expect(row.failingSince).toBeNull();
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('deliveries claimed ahead are sent only while their claim covers an attempt', async () => {
    // A quick receiver gets deliveries claimed ahead of its 16 slots. Here a claim (1 s) never
    // covers a whole attempt (2 s time-out): none claimed ahead is sent from the queue; each is
    // given back unsent (the attempt it counted uncounted), claimed again and sent by a claim
    // with a free slot. Every event arrives once, never more than 16 at once, and each delivery
    // counts the one attempt it had.
    const t = await createTestApp(
      webhookTestConfig({ deliver: false, claimLeaseMs: 1_000, timeoutMs: 2_000 }),
    );
    const receiver = new Receiver();
    await receiver.listen();
    receiver.answer = () => ({ status: 200, afterMs: 50 });
    let replica: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      const product = await addProduct(t.app, 'Ahead lead', '1.00', 1000);
      await Promise.all(Array.from({ length: 24 }, () => place(t, product)));
      await feedAll(t); // numbers them: 24 deliveries queued
      replica = await deliveringReplica(t);
      await until(() => receiver.received.length >= 24, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(24);
      expect(new Set(receiver.verified(hook.secret).map((d) => d.id)).size).toBe(24);
      expect(receiver.maxOpen).toBeLessThanOrEqual(16);
      // Recorded after the receiver answered: waited for.
      const settled = async () =>
        (await stored(t, hook.id)).every(
          (r) => r.status === 'delivered' && r.claimedUntil === null,
        );
      await until(settled);
      const rows = await stored(t, hook.id);
      expect(rows.map((r) => r.attempts)).toEqual(Array.from({ length: 24 }, () => 1));
      expect(await t.app.db.deliveryAttempt.count()).toBe(24);
    } finally {
      await replica?.close();
      await t.close();
      await receiver.close();
    }
  });

  it('retry and re-enabling during an attempt wait for it, then send at once if it failed', async () => {
    // The receiver holds the first request 600 ms and answers 500; the next retry would be a
    // minute later by the schedule.
    const t = await createTestApp(
      webhookTestConfig({ claimLeaseMs: 10_000, timeoutMs: 2_000, retryScheduleMs: [60_000] }),
    );
    const receiver = new Receiver();
    await receiver.listen();
    let requests = 0;
    receiver.answer = () => (++requests === 1 ? { status: 500, afterMs: 600 } : 200);
    try {
      const hook = await subscribe(t, receiver.url, ['order.created']);
      await place(t, await addProduct(t.app, 'Retried lead', '1.00', 10));
      await until(() => requests === 1);
      const page = await t.request({ method: 'GET', url: `/webhooks/${hook.id}/deliveries` });
      const delivery = page.json().data.deliveries[0] as { id: number };
      const retry = await t.request({
        method: 'POST',
        url: `/webhooks/${hook.id}/deliveries/${delivery.id}/retry`,
      });
      expect(retry.statusCode).toBe(202);
      const enable = await t.request({
        method: 'PATCH',
        url: `/webhooks/${hook.id}`,
        payload: { enabled: true },
      });
      expect(enable.statusCode).toBe(200);
      await until(() => receiver.received.length === 2, 5_000);
      const [first, second] = receiver.received as [Received, Received];
      expect([first.status, second.status]).toEqual([500, 200]);
      // Not side by side: the second request only once the first was answered, and at once
      // then, not after the schedule's minute.
      expect(second.arrivedAt).toBeGreaterThanOrEqual(first.answeredAt);
      expect(second.arrivedAt - first.answeredAt).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).toHaveLength(2);
      await until(async () => (await stored(t, hook.id))[0]!.status === 'delivered');
      expect((await stored(t, hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

describe('metrics of the backlog', () => {
  /** GET /metrics (the scraper has no key); a sample's value, undefined when there is none. */
  async function scrape(t: { app: TestApp['app'] }) {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return (series: string): number | undefined => {
      const line = res.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
  }
  const AGE = 'webhook_oldest_undelivered_event_age_seconds';
  it('the age of the oldest undelivered event rises while a receiver fails, and is 0 once it acknowledges', async () => {
    const t = await createTestApp(webhookTestConfig());
    const receiver = new Receiver();
    await receiver.listen();
    try {
      expect((await scrape(t))(AGE)).toBe(0);
      receiver.answer = () => 500;
      await subscribe(t, receiver.url, ['order.created']);
      await place(t, await addProduct(t.app, 'Backlog lead', '1.00', 10));
      await until(() => receiver.received.length >= 2);
      const first = (await scrape(t))(AGE)!;
      expect(first).toBeGreaterThan(0);
      await pause(300);
      expect((await scrape(t))(AGE)).toBeGreaterThanOrEqual(first + 0.25);

      receiver.answer = () => 200;
      await until(() => receiver.received.some((r) => r.status === 200));
      await until(async () => (await scrape(t))(AGE) === 0);
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('counts an event committed but not yet queued (no worker has numbered it)', async () => {
    const t = await createTestApp(webhookTestConfig());
    // The sequencer's lock held here: no worker numbers the event meanwhile.
    const holder = new pg.Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [String(SEQUENCER_LOCK)]);
      await place(t, await addProduct(t.app, 'Unqueued lead', '1.00', 10));
      expect(await t.app.db.event.count({ where: { sequence: null } })).toBe(1);
      const first = (await scrape(t))(AGE)!;
      await pause(300);
      expect((await scrape(t))(AGE)).toBeGreaterThanOrEqual(first + 0.25);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [String(SEQUENCER_LOCK)]);
      // Numbered now; no subscription wants it, so nothing is undelivered.
      expect((await feedAll(t)).map((e) => e.type)).toEqual(['order.created']);
      expect((await scrape(t))(AGE)).toBe(0);
    } finally {
      await holder.end();
      await t.close();
    }
  });

  it('counts the subscriptions disabled now, by the shop and by their owner; theirs are not a backlog', async () => {
    const t = await createTestApp(webhookTestConfig({ disableAfterMs: 300 }));
    const failing = new Receiver();
    const paused = new Receiver();
    await failing.listen();
    await paused.listen();
    try {
      const shop = 'webhook_subscriptions_disabled{by="shop"}';
      const owner = 'webhook_subscriptions_disabled{by="owner"}';
      let metrics = await scrape(t);
      expect([metrics(shop), metrics(owner)]).toEqual([0, 0]);

      failing.answer = () => 503;
      const hook = await subscribe(t, failing.url, ['order.created']);
      const other = await subscribe(t, paused.url, ['order.created']);
      const off = await t.request({
        method: 'PATCH',
        url: `/webhooks/${other.id}`,
        payload: { enabled: false },
      });
      expect(off.statusCode).toBe(200);
      await place(t, await addProduct(t.app, 'Disabled lead', '1.00', 10));
      await until(async () => (await scrape(t))(shop) === 1);
      metrics = await scrape(t);
      expect([metrics(shop), metrics(owner)]).toEqual([1, 1]);
      // The failing one's deliveries failed with it, the paused one got none: nothing waits.
      expect(metrics(AGE)).toBe(0);
      expect(paused.received).toHaveLength(0);

      failing.answer = () => 200;
      await t.request({ method: 'PATCH', url: `/webhooks/${hook.id}`, payload: { enabled: true } });
      metrics = await scrape(t);
      expect([metrics(shop), metrics(owner)]).toEqual([0, 1]);
    } finally {
      await t.close();
      await failing.close();
      await paused.close();
    }
  });

  it('a scrape answers while the database cannot be reached, without the gauges', async () => {
    const app = await buildApp({
      ...testConfig(webhookTestConfig()),
      databaseUrl: 'postgresql://postgres:x@127.0.0.1:1/gone',
    });
    try {
      const metrics = await scrape({ app });
      expect(metrics(AGE)).toBeUndefined();
      expect(metrics('webhook_subscriptions_disabled{by="shop"}')).toBeUndefined();
      expect(metrics('webhook_subscriptions_disabled_total')).toBe(0);
    } finally {
      await app.close();
    }
  });
});
