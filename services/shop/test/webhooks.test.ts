// Webhook subscriptions: registering (checked targets, the secret shown once and stored sealed),
// reading, changing, deleting, rotating the secret. Deliveries are in webhook-delivery.test.ts.
// No worker runs here (deliver: false), so no subscription below is ever sent anything.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  claimDueDeliveries,
  recordAttempts,
  type AttemptResult,
  type ClaimedDelivery,
} from '../src/modules/webhooks/repository.js';
import { OpenedSecrets, openSecret } from '../src/modules/webhooks/secrets.js';
import { isPublicAddress } from '../src/modules/webhooks/targets.js';
import { createTestApp, testConfig, type TestApp } from './support/app.js';
import { HOLDER_MARK, lockWaiters } from './support/locks.js';
import { subscriptionWithPings } from './support/webhooks.js';

let t: TestApp;
const base = testConfig().webhooks;

beforeAll(async () => {
  t = await createTestApp({ webhooks: { ...base, deliver: false } });
});
afterAll(async () => {
  await t.close();
});

const post = (payload: object, app: TestApp = t) =>
  app.request({ method: 'POST', url: '/webhooks', payload });

describe('the address check', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('registering', () => {
  it('refuses http, and hosts that are or resolve to non-public addresses, in the envelope', async () => {
    for (const url of [
      'http://93.184.215.14/hook',
      'ftp://93.184.215.14/hook',
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/hook',
      'https://0x7f.1/hook',
      'https://user:pass@93.184.215.14/hook',
      'not a url',
    ]) {
      const res = await post({ url, events: ['*'] });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json()).toMatchObject({ success: false, status_code: 400 });
    }
    expect((await t.request({ method: 'GET', url: '/webhooks' })).json().data).toEqual([]);
  });

  it('refuses unknown event types, an empty list and unknown fields', async () => {
    const url = 'https://93.184.215.14/hook';
    for (const payload of [
      { url, events: ['order.deleted'] },
      { url, events: [] },
      { url, events: ['*'], secret: 'mine' },
    ]) {
      expect((await post(payload)).statusCode).toBe(400);
    }
  });

  it('answers 201 with a whsec_ secret shown once and stored sealed; lists, reads, changes and deletes', async () => {
    const res = await post({
      url: 'https://93.184.215.14/hook',
      events: ['order.created', 'order.status_changed'],
      description: 'ERP',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data as { id: number; secret: string };
    expect(created).toMatchObject({
      url: 'https://93.184.215.14/hook',
      events: ['order.created', 'order.status_changed'],
      description: 'ERP',
      enabled: true,
      disabled_reason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // A Standard Webhooks library takes it as it is.
    expect(() => new Webhook(created.secret)).not.toThrow();

    // At rest: sealed (nothing of the secret readable), opened only with the key.
    const client = new pg.Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ secret: string }>(
      'SELECT secret FROM webhooks WHERE id = $1',
      [created.id],
    );
    await client.end();
    const stored = rows[0]!.secret;
    expect(stored).not.toContain(created.secret.slice(6, 20));
    expect(openSecret(t.config.webhooks.secretKey, stored)).toBe(created.secret);
    expect(() => openSecret('another-key-of-at-least-32-characters!!', stored)).toThrow();

    const one = await t.request({ method: 'GET', url: `/webhooks/${created.id}` });
    expect(one.json().data).not.toHaveProperty('secret');
    const list = await t.request({ method: 'GET', url: '/webhooks' });
    expect(list.json().data).toEqual([one.json().data]);

    const patched = await t.request({
      method: 'PATCH',
      url: `/webhooks/${created.id}`,
      payload: { events: ['*'], enabled: false, description: '' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ events: ['*'], enabled: false, description: '' });
    const refused = await t.request({
      method: 'PATCH',
      url: `/webhooks/${created.id}`,
      payload: { url: 'https://192.168.0.1/hook' },
    });
    expect(refused.statusCode).toBe(400);

    const deleted = await t.request({ method: 'DELETE', url: `/webhooks/${created.id}` });
    expect(deleted.statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', `/webhooks/${created.id}`],
      ['DELETE', `/webhooks/${created.id}`],
      ['POST', `/webhooks/${created.id}/rotate-secret`],
      ['POST', `/webhooks/${created.id}/ping`],
      ['GET', `/webhooks/${created.id}/deliveries`],
      ['POST', `/webhooks/${created.id}/deliveries/1/retry`],
    ] as const) {
      expect({ method, url, status: (await t.request({ method, url })).statusCode }).toEqual({
        method,
        url,
        status: 404,
      });
    }
  });

  it('rotating gives a new secret; the previous one is kept, sealed, for 24 hours', async () => {
    const created = (await post({ url: 'https://93.184.215.14/rotate', events: ['*'] })).json()
      .data as { id: number; secret: string };
    const before = Date.now();
    const res = await t.request({ method: 'POST', url: `/webhooks/${created.id}/rotate-secret` });
    expect(res.statusCode).toBe(200);
    const rotated = res.json().data as { secret: string; previous_secret_expires_at: string };
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const expires = Date.parse(rotated.previous_secret_expires_at) - before;
    expect(expires).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000 + 5000);
    const row = await t.app.db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(openSecret(t.config.webhooks.secretKey, row.secret)).toBe(rotated.secret);
    expect(openSecret(t.config.webhooks.secretKey, row.previousSecret!)).toBe(created.secret);
    await t.request({ method: 'DELETE', url: `/webhooks/${created.id}` });
  });

  it("the worker opens a webhook's secret once, and again after a rotation (the old one dropped)", async () => {
    const created = (await post({ url: 'https://93.184.215.14/cached', events: ['*'] })).json()
      .data as { id: number; secret: string };
    const opened: string[] = [];
    const secrets = new OpenedSecrets((sealed) => {
      const secret = openSecret(t.config.webhooks.secretKey, sealed);
      opened.push(secret);
      return secret;
    });
    const stored = () => t.app.db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    const first = await stored();
    expect(secrets.get(created.id, 'current', first.secret)).toBe(created.secret);
    expect(secrets.get(created.id, 'current', first.secret)).toBe(created.secret);
    expect(opened).toEqual([created.secret]);

    const res = await t.request({ method: 'POST', url: `/webhooks/${created.id}/rotate-secret` });
    const rotated = res.json().data.secret as string;
    const row = await stored();
    // The stored value changed: the new secret is opened, in place of the one kept.
    expect(secrets.get(created.id, 'current', row.secret)).toBe(rotated);
    expect(secrets.get(created.id, 'previous', row.previousSecret!)).toBe(created.secret);
    expect(secrets.get(created.id, 'current', row.secret)).toBe(rotated);
    expect(opened).toEqual([created.secret, rotated, created.secret]);
    expect(secrets.size).toBe(2);
    // Another webhook's entries are its own; a full cache starts over.
    const small = new OpenedSecrets((sealed) => sealed, 2);
    small.get(1, 'current', 'a');
    small.get(2, 'current', 'b');
    small.get(3, 'current', 'c');
    expect(small.size).toBe(1);
    await t.request({ method: 'DELETE', url: `/webhooks/${created.id}` });
  });

  it('needs the API key', async () => {
    for (const [method, url] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
      ['GET', '/webhooks/1/deliveries'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('claims (made here as a worker would; no worker runs)', () => {
  const HOUR = 3600_000;
  const claim = (room: Map<number, number> = new Map()) =>
    claimDueDeliveries(t.app.db, { limit: 32, perWebhook: 4, leaseMs: 60_000, room });
  const failed = (retryInMs: number): AttemptResult => ({
    at: new Date(),
    statusCode: 500,
    error: null,
    durationMs: 5,
    delivered: false,
    retryAt: new Date(Date.now() + retryInMs),
  });
  const delivered: AttemptResult = {
    at: new Date(),
    statusCode: 200,
    error: null,
    durationMs: 5,
    delivered: true,
    retryAt: null,
  };
  const withPings = (n: number) => subscriptionWithPings(t, 'https://93.184.215.14/claims', n);
  const recordAttempt = async (
    db: typeof t.app.db,
    delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>,
    result: AttemptResult,
  ) => (await recordAttempts(db, [{ delivery, result }]))[0]!;
  const row = (id: number) =>
    t.app.db.webhookDelivery.findUniqueOrThrow({
      where: { id },
      select: { status: true, attempts: true, nextAttemptAt: true, claimedUntil: true },
    });
  const logged = (id: number) => t.app.db.deliveryAttempt.count({ where: { deliveryId: id } });

  it('takes at most the room of each webhook, oldest due first, and says how many were due', async () => {
    const hook = await withPings(6);
    const first = await claim(new Map([[hook.id, 1]]));
    expect(first.deliveries.map((d) => [d.id, d.attempts])).toEqual([[hook.deliveries[0], 1]]);
    // As many due as its room: more may be.
    expect(first.due.get(hook.id)).toBe(1);
    expect((await claim(new Map([[hook.id, 0]]))).deliveries).toEqual([]);
    const second = await claim();
    const ids = second.deliveries.map((d) => d.id).sort((a, b) => a - b);
    expect(ids).toEqual(hook.deliveries.slice(1, 5));
    expect(second.due.get(hook.id)).toBe(4);
    const third = await claim();
    expect(third.deliveries.map((d) => d.id)).toEqual(hook.deliveries.slice(5));
    expect(third.due.get(hook.id)).toBe(1);
    expect((await claim()).due.has(hook.id)).toBe(false);
    await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}` });
  });

  // The worker records an attempt in one statement that locks the delivery, then the webhook (its
  // failing streak); a delete locks the webhook, then its deliveries (the cascade). Held here as
  // the worker holds them, the two wait for each other and PostgreSQL rolls one back.
  it.each([
    ['a delete', (id: number) => ({ method: 'DELETE' as const, url: `/webhooks/${id}` })],
    [
      're-enabling',
      (id: number) => ({
        method: 'PATCH' as const,
        url: `/webhooks/${id}`,
        payload: { enabled: true },
      }),
    ],
  ])('%s caught in a deadlock with the worker is run again, never a 500', async (_, request) => {
    // PostgreSQL rolls back the session whose wait first finds the cycle: the request's, unless
    // this process stalled for longer than deadlock_timeout (1 s) before closing the cycle and
    // the holder's own wait found it. Then the request met no deadlock: tried again, anew.
    for (let tries = 1; ; tries++) {
      const hook = await withPings(2);
      if (request(hook.id).method === 'PATCH') {
        await t.request({
          method: 'PATCH',
          url: `/webhooks/${hook.id}`,
          payload: { enabled: false },
        });
      }
      const worker = new pg.Client({ connectionString: t.config.databaseUrl });
      await worker.connect();
      let holderSurvived = true;
      try {
        await worker.query(`BEGIN ${HOLDER_MARK}`);
        await worker.query(
          `UPDATE webhook_deliveries SET updated_at = now() WHERE webhook_id = $1 ${HOLDER_MARK}`,
          [hook.id],
        );
        const answer = t.request(request(hook.id));
        await lockWaiters(t.config.databaseUrl, 1);
        // Waits for the request's lock of the webhook: a cycle, which the request (waiting
        // longer) finds and is rolled back for.
        try {
          await worker.query(
            `UPDATE webhooks SET failing_since = now() WHERE id = $1 ${HOLDER_MARK}`,
            [hook.id],
          );
          await worker.query(`COMMIT ${HOLDER_MARK}`);
        } catch (error) {
          if ((error as { code?: string }).code !== '40P01' || tries === 3) throw error;
          holderSurvived = false;
          await worker.query('ROLLBACK');
        }
        expect((await answer).statusCode).toBe(200);
      } finally {
        await worker.end();
      }
      // Done once the worker let go: deleted, or enabled.
      const after = await t.app.db.webhook.findUnique({ where: { id: hook.id } });
      expect(after && { enabled: after.enabled }).toEqual(
        request(hook.id).method === 'DELETE' ? null : { enabled: true },
      );
      await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}` });
      if (holderSurvived) return;
    }
  });

  it('an attempt recorded after its claim ran out and the delivery was claimed again is dropped', async () => {
    const hook = await withPings(1);
    const [stale] = (await claim()).deliveries;
    expect(stale).toMatchObject({ id: hook.deliveries[0], attempts: 1 });
    // The claim runs out (a stalled worker) and another worker claims the delivery.
    await t.app.db.webhookDelivery.update({
      where: { id: stale!.id },
      data: {
        claimedUntil: new Date(Date.now() - 1000),
        nextAttemptAt: new Date(Date.now() - 1000),
      },
    });
    const [current] = (await claim()).deliveries;
    expect(current).toMatchObject({ id: stale!.id, attempts: 2 });
    const claimed = await row(stale!.id);

    // The stalled worker's failure arrives: nothing of it is kept.
    expect(await recordAttempt(t.app.db, stale!, failed(HOUR))).toEqual({
      recorded: false,
      failingSince: null,
      dueNow: false,
    });
    expect(await row(stale!.id)).toEqual(claimed);
    expect(await logged(stale!.id)).toBe(0);
    const webhook = await t.app.db.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(webhook.failingSince).toBeNull();

    // The current claim's attempt is recorded.
    expect(await recordAttempt(t.app.db, current!, delivered)).toEqual({
      recorded: true,
      failingSince: null,
      dueNow: false,
    });
    expect(await row(stale!.id)).toMatchObject({ status: 'delivered', claimedUntil: null });
    expect(await logged(stale!.id)).toBe(1);
    await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}` });
  });

  it('records attempts together, each as if alone; the failing streak by the order they began', async () => {
    const hook = await withPings(4);
    const claimed = (await claim()).deliveries.sort((a, b) => a.id - b.id);
    const [a, b, c, d] = claimed as [
      ClaimedDelivery,
      ClaimedDelivery,
      ClaimedDelivery,
      ClaimedDelivery,
    ];
    const at = (msAgo: number) => new Date(Date.now() - msAgo);
    // d's claim ran out and it was claimed again: its first attempt is stale.
    await t.app.db.webhookDelivery.update({
      where: { id: d.id },
      data: { claimedUntil: at(1000), nextAttemptAt: at(1000) },
    });
    const [again] = (await claim()).deliveries;
    expect(again).toMatchObject({ id: d.id, attempts: 2 });
    // a failed, then b succeeded, then c failed (by when they began); d twice: stale and current.
    const results = await recordAttempts(t.app.db, [
      { delivery: c, result: { ...failed(HOUR), at: at(100) } },
      { delivery: a, result: { ...failed(HOUR), at: at(300) } },
      { delivery: d, result: { ...delivered, at: at(50) } },
      { delivery: b, result: { ...delivered, at: at(200) } },
      { delivery: again!, result: { ...failed(HOUR), at: at(40) } },
    ]);
    const since = results[0]!.failingSince!;
    expect(results).toEqual([
      { recorded: true, failingSince: since, dueNow: false },
      { recorded: true, failingSince: since, dueNow: false },
      { recorded: false, failingSince: null, dueNow: false },
      { recorded: true, failingSince: since, dueNow: false },
      { recorded: true, failingSince: since, dueNow: false },
    ]);
    // Failing since c began: the first failure after the last success (b).
    expect(Math.abs(since.getTime() - (Date.now() - 100))).toBeLessThan(1000);
    expect((await row(a.id)).status).toBe('pending');
    expect((await row(b.id)).status).toBe('delivered');
    expect(await logged(d.id)).toBe(1);
    for (const delivery of [a, b, c, d]) expect((await row(delivery.id)).claimedUntil).toBeNull();
    await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}` });
  });

  it('retry and re-enabling leave a claimed delivery claimed; due at once when its attempt fails', async () => {
    const hook = await withPings(1);
    const id = hook.deliveries[0]!;
    const [attempt] = (await claim()).deliveries;
    const retry = await t.request({
      method: 'POST',
      url: `/webhooks/${hook.id}/deliveries/${id}/retry`,
    });
    expect(retry.statusCode).toBe(202);
    const enable = await t.request({
      method: 'PATCH',
      url: `/webhooks/${hook.id}`,
      payload: { enabled: true },
    });
    expect(enable.statusCode).toBe(200);
    // Still claimed by the attempt in flight: no second worker takes it.
    expect((await claim()).deliveries).toEqual([]);
    expect((await row(id)).claimedUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    // It fails: due at once (as asked), not in an hour by the schedule.
    const failing = await recordAttempt(t.app.db, attempt!, failed(HOUR));
    expect(failing).toEqual({
      recorded: true,
      failingSince: expect.any(Date),
      dueNow: true,
    });
    const after = await row(id);
    expect(after).toMatchObject({ status: 'pending', attempts: 1, claimedUntil: null });
    expect(after.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    const [again] = (await claim()).deliveries;
    expect(again).toMatchObject({ id, attempts: 2 });

    // Without a retry asked for meanwhile, a failure waits for the schedule; the streak is kept.
    expect(await recordAttempt(t.app.db, again!, failed(HOUR))).toEqual({
      recorded: true,
      failingSince: failing.failingSince,
      dueNow: false,
    });
    expect((await row(id)).nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
    expect((await claim()).deliveries).toEqual([]);
    await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}` });
  });
});

describe('with the test flags', () => {
  it('WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_TARGETS admit http on loopback', async () => {
    const open = await createTestApp({
      webhooks: { ...base, deliver: false, allowHttp: true, allowPrivateTargets: true },
    });
    try {
      const res = await post({ url: 'http://127.0.0.1:9/hook', events: ['*'] }, open);
      expect(res.statusCode).toBe(201);
      // Still not other schemes.
      expect((await post({ url: 'ftp://127.0.0.1/hook', events: ['*'] }, open)).statusCode).toBe(
        400,
      );
    } finally {
      await open.close();
    }
  });

  it('the flags are read from the environment, off by default', async () => {
    const { readConfig } = await import('../src/config.js');
    const env = {
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(32),
      WEBHOOK_SECRET_KEY: 'k'.repeat(32),
    };
    expect(readConfig(env).webhooks).toMatchObject({
      allowHttp: false,
      allowPrivateTargets: false,
      deliver: true,
    });
    expect(readConfig({ ...env, WEBHOOK_DELIVERY: 'false' }).webhooks.deliver).toBe(false);
    expect(
      readConfig({ ...env, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
        .webhooks,
    ).toMatchObject({ allowHttp: true, allowPrivateTargets: true });
    expect(() =>
      readConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(32),
        DATABASE_URL: 'postgres://h/db',
      }),
    ).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('WEBHOOK_CLAIM_LEASE_SECONDS: 70 by default, longer than the 10 s delivery time-out', async () => {
    const { readConfig } = await import('../src/config.js');
    const { ConfigError } = await import('@dogshop/service-kit');
    const env = {
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(32),
      WEBHOOK_SECRET_KEY: 'k'.repeat(32),
    };
    expect(readConfig(env).webhooks).toMatchObject({ claimLeaseMs: 70_000, timeoutMs: 10_000 });
    expect(readConfig({ ...env, WEBHOOK_CLAIM_LEASE_SECONDS: '11' }).webhooks.claimLeaseMs).toBe(
      11_000,
    );
    for (const value of ['10', '5']) {
      const run = () => readConfig({ ...env, WEBHOOK_CLAIM_LEASE_SECONDS: value });
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(
        `WEBHOOK_CLAIM_LEASE_SECONDS: must be greater than the 10 s delivery time-out (got "${value}"); set it to 11 or more, or leave it unset (70)`,
      );
    }
    expect(() => readConfig({ ...env, WEBHOOK_CLAIM_LEASE_SECONDS: '1.5' })).toThrow(
      /^WEBHOOK_CLAIM_LEASE_SECONDS: /,
    );
  });
});
