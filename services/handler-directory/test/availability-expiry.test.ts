// Availability that expires: a handler available until a time is listed until then and not after,
// on every replica, with no write in between: the kept public list and its ETag turn over at the
// earliest `availableUntil`; the paged and nearest-first lists agree.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sleep } from '@dogshop/child-processes';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from './support/app.js';
import { startTwoReplicas, type TwoReplicas } from './support/replicas.js';
import { expectDirectoryError } from './support/contract.js';
import { createHandler, names } from './support/handlers.js';

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

describe('availableUntil on two replicas (one database, one Redis)', () => {
  let replicas: TwoReplicas;
  let a: TestApp;
  let b: FastifyInstance;

  beforeAll(async () => {
    replicas = await startTwoReplicas({ seedDemo: false });
    ({ a, b } = replicas);
  });
  afterAll(() => replicas?.close());

  const list = (app: FastifyInstance, query = '') =>
    app.inject({ method: 'GET', url: `/api/public/users${query}` });

  it('lists a handler until its end and not after, on both replicas, with a new ETag and no write', async () => {
    await createHandler(a, { name: 'Bleibt Verfügbar', gps: { lat: 52, lng: 13 } });
    const leaving = await createHandler(a, {
      name: 'Geht Gleich',
      // Far enough ahead for a loaded machine to list it four times first.
      availableUntil: inSeconds(4),
      gps: { lat: 52.01, lng: 13 },
    });
    expect(leaving.availableUntil).not.toBeNull();
    // Both replicas build and keep the whole list (a second read is served from the kept copy).
    const before = await Promise.all([list(a.app), list(b), list(a.app), list(b)]);
    for (const res of before) {
      expect(names(res.json())).toEqual(['Bleibt Verfügbar', 'Geht Gleich']);
    }
    const etag = before[0].headers.etag;
    expect(before.map((res) => res.headers.etag)).toEqual([etag, etag, etag, etag]);
    const writesBefore = await a.app.db.history.countDocuments({});

    await sleep(5_000);

    for (const app of [a.app, b]) {
      const whole = await list(app);
      expect(names(whole.json())).toEqual(['Bleibt Verfügbar']);
      expect(whole.headers.etag).not.toBe(etag);
      // The old tag no longer matches: a client revalidating gets the new list, not a 304.
      const revalidated = await app.inject({
        method: 'GET',
        url: '/api/public/users',
        headers: { 'if-none-match': etag as string },
      });
      expect(revalidated.statusCode).toBe(200);
      expect(names((await list(app, '?limit=1')).json())).toEqual(['Bleibt Verfügbar']);
      expect(names((await list(app, '?lat=52&lng=13')).json())).toEqual(['Bleibt Verfügbar']);
    }
    // Nothing was written meanwhile.
    expect(await a.app.db.history.countDocuments({})).toBe(writesBefore);
    // The admin list still has it, as set, and says since when it is confirmed.
    const admin = await a.request({ method: 'GET', url: `/api/users/${leaving._id}`, as: a.admin });
    expect(admin.json().data).toMatchObject({
      available: true,
      availableUntil: leaving.availableUntil,
    });
    const notListed = await a.request({
      method: 'GET',
      url: '/api/users?available=false',
      as: a.admin,
    });
    expect(names(notListed.json())).toEqual(['Geht Gleich']);
  });
});

describe('setting availability', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seedDemo: false });
  });
  afterAll(() => t.close());

  const setAvailability = (id: string, payload: object) =>
    t.request({ method: 'PUT', url: `/api/users/${id}/availability`, payload, as: t.admin });

  it('sets the whole availability, confirms it now, and clears an earlier end when none is given', async () => {
    const handler = await createHandler(t, { available: false });
    const until = inSeconds(7200);
    const before = Date.now();
    const on = await setAvailability(handler._id, { available: true, availableUntil: until });
    expect(on.statusCode).toBe(200);
    expect(on.json().data).toMatchObject({ available: true, availableUntil: until });
    expect(Date.parse(on.json().data.availabilityConfirmedAt)).toBeGreaterThanOrEqual(before - 5);
    const plain = await setAvailability(handler._id, { available: true });
    expect(plain.json().data.availableUntil).toBeNull();
    const off = await setAvailability(handler._id, { available: false });
    expect(off.json().data).toMatchObject({ available: false, availableUntil: null });
  });

  it('takes an offset time and answers it in UTC', async () => {
    const handler = await createHandler(t);
    const local = new Date(Date.now() + 86_400_000);
    const offset = `${local.toISOString().slice(0, 19)}+01:00`;
    const res = await setAvailability(handler._id, { available: true, availableUntil: offset });
    expect(res.json().data.availableUntil).toBe(new Date(offset).toISOString());
  });

  it('refuses an end in the past (400) and a time that is no date-time', async () => {
    const handler = await createHandler(t);
    expectDirectoryError(
      await setAvailability(handler._id, { available: true, availableUntil: inSeconds(-60) }),
      400,
      'Ungültige Anfrage: availableUntil muss in der Zukunft liegen',
    );
    expectDirectoryError(
      await setAvailability(handler._id, { available: true, availableUntil: 'morgen' }),
      400,
    );
    const unchanged = await t.request({
      method: 'GET',
      url: `/api/users/${handler._id}`,
      as: t.admin,
    });
    expect(unchanged.json().data.availableUntil).toBeNull();
  });

  it('the full update sets availableUntil too, and confirms; a change of the name does not confirm', async () => {
    const handler = await createHandler(t);
    const until = inSeconds(3600);
    const updated = await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}`,
      payload: { availableUntil: until },
      as: t.admin,
    });
    expect(updated.json().data.availableUntil).toBe(until);
    const confirmed = updated.json().data.availabilityConfirmedAt;
    expect(confirmed).not.toBe(handler.availabilityConfirmedAt);
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/users/${handler._id}`,
      payload: { name: 'Neuer Name' },
      as: t.admin,
    });
    expect(renamed.json().data.availabilityConfirmedAt).toBe(confirmed);
  });
});
