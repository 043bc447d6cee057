// The delivery worker's statement (record + claim, repository.ts) runs through `pg` on the app's
// pool (app.reads) in the worker, and through Prisma's client where webhooks.test.ts calls it:
// both must claim and record alike (the parameters as bound, the answers as converted). No worker
// runs here (deliver: false).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  claimDueDeliveries,
  recordAttempts,
  type AttemptResult,
  type ClaimedDelivery,
  type ClaimRequest,
} from '../src/modules/webhooks/repository.js';
import { createTestApp, testConfig, type TestApp } from './support/app.js';
import { subscriptionWithPings } from './support/webhooks.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ webhooks: { ...testConfig().webhooks, deliver: false } });
});
afterAll(async () => {
  await t.close();
});

const withPings = (n: number) => subscriptionWithPings(t, 'https://93.184.215.14/statements', n);

/** What the database holds for a claimed delivery, read by Prisma. */
async function stored(delivery: ClaimedDelivery) {
  const [row] = await t.app.db.$queryRaw<Array<{ payload: string }>>`
    SELECT payload::text AS payload FROM webhook_deliveries WHERE id = ${delivery.id}`;
  const webhook = await t.app.db.webhook.findUniqueOrThrow({ where: { id: delivery.webhookId } });
  return {
    id: delivery.id,
    webhookId: webhook.id,
    eventId: delivery.eventId,
    payload: row!.payload,
    attempts: 1,
    url: webhook.url,
    secret: webhook.secret,
    previousSecret: webhook.previousSecret,
    previousSecretUntil: webhook.previousSecretUntil,
  };
}

describe("the worker's statement through pg and through Prisma", () => {
  it('claims alike and records alike: the same fields, types, texts and times', async () => {
    const rotated = await withPings(2);
    await t.request({ method: 'POST', url: `/webhooks/${rotated.id}/rotate-secret` });
    const plain = await withPings(2);
    const request: ClaimRequest = {
      limit: 32,
      perWebhook: 4,
      leaseMs: 60_000,
      room: new Map([
        [rotated.id, 1],
        [plain.id, 1],
      ]),
    };
    const byId = (a: ClaimedDelivery, b: ClaimedDelivery) => a.id - b.id;
    const viaPg = await claimDueDeliveries(t.app.reads, request);
    const viaPrisma = await claimDueDeliveries(t.app.db, request);
    // Each took the oldest due of each webhook, and saw one more due of each.
    expect(viaPg.deliveries.map((d) => d.id).sort()).toEqual(
      [rotated.deliveries[0], plain.deliveries[0]].sort(),
    );
    expect(viaPrisma.deliveries.map((d) => d.id).sort()).toEqual(
      [rotated.deliveries[1], plain.deliveries[1]].sort(),
    );
    for (const claim of [viaPg, viaPrisma]) {
      expect(claim.due).toEqual(
        new Map([
          [rotated.id, 1],
          [plain.id, 1],
        ]),
      );
      for (const delivery of claim.deliveries) expect(delivery).toEqual(await stored(delivery));
    }
    const [pgRotated, pgPlain] = viaPg.deliveries.sort(byId);
    const [prismaRotated, prismaPlain] = viaPrisma.deliveries.sort(byId);
    expect(pgRotated!.previousSecretUntil).toBeInstanceOf(Date);
    expect(pgPlain!.previousSecretUntil).toBeNull();

    // The rotated one's receiver fails (an error text with what array literals must escape),
    // the other's answers; pg records first, then Prisma.
    const failedAt = new Date(Date.now() - 1_234);
    const failed: AttemptResult = {
      at: failedAt,
      statusCode: null,
      error: 'said "no", {a,b} \\ NULL',
      durationMs: 17,
      delivered: false,
      retryAt: new Date(Date.now() + 3600_000),
    };
    const delivered: AttemptResult = {
      at: new Date(Date.now() - 500),
      statusCode: 204,
      error: null,
      durationMs: 3,
      delivered: true,
      retryAt: null,
    };
    const record = (
      db: typeof t.app.reads | typeof t.app.db,
      a: ClaimedDelivery,
      b: ClaimedDelivery,
    ) =>
      recordAttempts(db, [
        { delivery: a, result: failed },
        { delivery: b, result: delivered },
      ]);
    const recordedByPg = await record(t.app.reads, pgRotated!, pgPlain!);
    const recordedByPrisma = await record(t.app.db, prismaRotated!, prismaPlain!);
    // The rotated webhook has been failing since the first failure (pg's, kept by Prisma's).
    const expected = [
      { recorded: true, failingSince: failedAt, dueNow: false },
      { recorded: true, failingSince: null, dueNow: false },
    ];
    expect(recordedByPg).toEqual(expected);
    expect(recordedByPrisma).toEqual(expected);

    const attempts = await t.app.db.deliveryAttempt.findMany({
      where: {
        deliveryId: { in: [...viaPg.deliveries, ...viaPrisma.deliveries].map((d) => d.id) },
      },
      select: { deliveryId: true, at: true, statusCode: true, error: true, durationMs: true },
      orderBy: { deliveryId: 'asc' },
    });
    const logged = (result: AttemptResult, deliveryId: number) => ({
      deliveryId,
      at: result.at,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    });
    expect(attempts).toEqual(
      [
        logged(failed, pgRotated!.id),
        logged(delivered, pgPlain!.id),
        logged(failed, prismaRotated!.id),
        logged(delivered, prismaPlain!.id),
      ].sort((a, b) => a.deliveryId - b.deliveryId),
    );
    const retryAt = await t.app.db.webhookDelivery.findMany({
      where: { id: { in: [pgRotated!.id, prismaRotated!.id] } },
      select: { status: true, nextAttemptAt: true, claimedUntil: true },
    });
    expect(retryAt).toEqual([
      { status: 'pending', nextAttemptAt: failed.retryAt, claimedUntil: null },
      { status: 'pending', nextAttemptAt: failed.retryAt, claimedUntil: null },
    ]);
    for (const id of [rotated.id, plain.id]) {
      await t.request({ method: 'DELETE', url: `/webhooks/${id}` });
    }
  });
});
