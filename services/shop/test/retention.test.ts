// Retention covers every copy of an event: after EVENT_RETENTION_DAYS the event, its delivery to
// each subscription (which carries its payload) and those deliveries' attempts are gone from every
// table, and so are old pings and deliveries an earlier retention left without their event. The
// real worker deletes them (its first numbering run), sent to a real receiver on loopback.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildApp } from '../src/app.js';
import { createTestApp, webhookTestConfig, type TestApp } from './support/app.js';

let t: TestApp;
let receiver: http.Server;
let url: string;

beforeAll(async () => {
  t = await createTestApp(webhookTestConfig({ deliver: false }));
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await t.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function until(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs a replica with its delivery worker until `done`, then closes it. */
async function withWorker(done: () => Promise<boolean>): Promise<void> {
  const replica = await buildApp({
    ...t.config,
    webhooks: { ...t.config.webhooks, deliver: true },
  });
  try {
    await replica.ready();
    await until(done);
  } finally {
    await replica.close();
  }
}

const count = async (sql: string, ...values: unknown[]): Promise<number> => {
  const [row] = await t.app.db.$queryRawUnsafe<Array<{ n: number }>>(sql, ...values);
  return row!.n;
};

/** Rows of every table of the shop's schema whose text holds `text`, by table. */
async function rowsHolding(text: string): Promise<Record<string, number>> {
  const tables = await t.app.db.$queryRaw<Array<{ name: string }>>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`;
  expect(tables.map((r) => r.name)).toEqual(
    expect.arrayContaining(['events', 'webhook_deliveries', 'delivery_attempts']),
  );
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const n = await count(
      `SELECT count(*)::int AS n FROM "${name}" t WHERE t::text LIKE '%' || $1 || '%'`,
      text,
    );
    if (n > 0) found[name] = n;
  }
  return found;
}

describe('retention', () => {
  it('leaves nothing of an expired event in any table: the event, its deliveries, their attempts', async () => {
    const subscribe = async () => {
      const res = await t.request({
        method: 'POST',
        url: '/webhooks',
        payload: { url, events: ['*'] },
      });
      expect(res.statusCode).toBe(201);
      return res.json().data.id as number;
    };
    // Two subscriptions to everything: each event's payload is copied into a delivery for each.
    const hooks = [await subscribe(), await subscribe()];
    const expired = `expired-${randomUUID()}@example.com`;
    const kept = `kept-${randomUUID()}@example.com`;
    const data = (name: string, id: number) => ({ product_id: id, name, stock: 0 });
    // Three that will expire (one of them deleted later as the retention before this one did,
    // leaving its deliveries), then one that stays, numbered after them.
    await t.app.db.event.createMany({
      data: [data(expired, 1), data(expired, 2), data(expired, 3), data(kept, 4)].map((d) => ({
        type: 'product.out_of_stock',
        occurredAt: new Date(),
        data: d,
      })),
    });
    const ping = async () => {
      const res = await t.request({ method: 'POST', url: `/webhooks/${hooks[0]}/ping` });
      expect(res.statusCode).toBe(202);
    };
    const attempts = (n: number) => async () =>
      (await t.app.db.deliveryAttempt.count({ where: { statusCode: 200 } })) === n;
    // A ping queued before the events' deliveries, one after: 4 events × 2 subscriptions and 2
    // pings, each delivered with one attempt.
    await ping();
    await withWorker(attempts(9));
    await ping();
    await withWorker(attempts(10));

    const expiredEvents = await t.app.db.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM events WHERE data->>'name' = ${expired} ORDER BY sequence`;
    expect(expiredEvents).toHaveLength(3);
    const eventIds = expiredEvents.map((e) => e.id);
    const [oldPing] = await t.app.db.$queryRaw<Array<{ id: number }>>`
      SELECT min(id) AS id FROM webhook_deliveries WHERE event_type = 'webhook.ping'`;
    const deliveryIds = (
      await t.app.db.$queryRaw<Array<{ id: number }>>`
        SELECT id FROM webhook_deliveries
         WHERE event_id = ANY(${eventIds}::uuid[]) OR id = ${oldPing!.id}`
    ).map((d) => d.id);
    expect(deliveryIds).toHaveLength(3 * 2 + 1);
    expect(await rowsHolding(expired)).toEqual({ events: 3, webhook_deliveries: 6 });

    // 40 days pass for the expired events, their copies and the old ping; the retention before
    // this change deleted one of the events and left its deliveries.
    await t.app.db.$executeRaw`
      UPDATE events SET occurred_at = occurred_at - interval '40 days'
       WHERE id = ANY(${eventIds}::uuid[])`;
    await t.app.db.$executeRaw`
      UPDATE webhook_deliveries SET created_at = created_at - interval '40 days'
       WHERE id = ANY(${deliveryIds}::int[])`;
    await t.app.db.$executeRaw`
      UPDATE delivery_attempts SET at = at - interval '40 days'
       WHERE delivery_id = ANY(${deliveryIds}::int[])`;
    await t.app.db.$executeRaw`DELETE FROM events WHERE id = ${eventIds[2]}::uuid`;
    expect(await rowsHolding(expired)).toEqual({ events: 2, webhook_deliveries: 6 });

    // A worker's first numbering run applies the retention (EVENT_RETENTION_DAYS 30).
    expect(t.config.webhooks.eventRetentionDays).toBe(30);
    await withWorker(
      async () =>
        (await count(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::int[])`,
          deliveryIds,
        )) === 0,
    );

    expect(await rowsHolding(expired)).toEqual({});
    expect(
      await count(
        'SELECT count(*)::int AS n FROM delivery_attempts WHERE delivery_id = ANY($1::int[])',
        deliveryIds,
      ),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM events WHERE id = ANY($1::uuid[])', eventIds),
    ).toBe(0);
    // What is recent stays: the kept event with its two deliveries and their attempts, the
    // recent ping.
    expect(await rowsHolding(kept)).toEqual({ events: 1, webhook_deliveries: 2 });
    expect(await t.app.db.webhookDelivery.count()).toBe(3);
    expect(await t.app.db.deliveryAttempt.count()).toBe(3);
    const feed = await t.request({ method: 'GET', url: '/events' });
    expect(feed.json().data.events.map((e: { data: { name: string } }) => e.data.name)).toEqual([
      kept,
    ]);
  });

  it('keeps the newest numbered event with its deliveries until a newer one is numbered', async () => {
    const old = `newest-${randomUUID()}@example.com`;
    const occurredAt = new Date(Date.now() - 40 * 24 * 3600_000);
    await t.app.db.event.create({
      data: {
        type: 'product.out_of_stock',
        occurredAt,
        data: { product_id: 5, name: old, stock: 0 },
      },
    });
    const delivered = await t.app.db.deliveryAttempt.count();
    // Numbered, sent to both subscriptions, then kept by the same worker's retention.
    await withWorker(async () => (await t.app.db.deliveryAttempt.count()) === delivered + 2);
    expect(await rowsHolding(old)).toEqual({ events: 1, webhook_deliveries: 2 });

    await t.app.db.event.create({
      data: {
        type: 'product.back_in_stock',
        occurredAt: new Date(),
        data: { product_id: 5, name: 'newer', stock: 1 },
      },
    });
    // The newer one numbered and sent to both; the old one gone with its deliveries' attempts.
    await withWorker(
      async () =>
        Object.keys(await rowsHolding(old)).length === 0 &&
        (await t.app.db.deliveryAttempt.count()) === delivered + 2,
    );
    expect(
      await count(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_type = $1',
        'product.back_in_stock',
      ),
    ).toBe(2);
  });
});
