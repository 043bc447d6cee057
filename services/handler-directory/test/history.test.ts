// The change history: every write to a handler records who, when and which fields changed from
// what to what, in the write's transaction; newest first, paged; a deleted handler's stays.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  HandlerHistoryResponseSchema,
  type HandlerChange,
} from '@dogshop/contracts/handler-directory';
import { createTestApp, type Account, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler } from './support/handlers.js';

let t: TestApp;
let handlerAccount: Account;
let handlerId: string;

beforeAll(async () => {
  t = await createTestApp({ seedDemo: false });
  handlerId = (await createHandler(t, { name: 'Hanna Historie', phone: '0171 1' }))._id;
  const created = await t.request({
    method: 'POST',
    url: '/api/accounts',
    payload: {
      username: 'hanna.h',
      role: 'handler',
      handlerId,
      password: 'a long handler passphrase',
    },
    as: t.admin,
  });
  handlerAccount = {
    ...t.admin,
    id: created.json().data.id,
    username: 'hanna.h',
    role: 'handler',
    token: await t.login('hanna.h', 'a long handler passphrase'),
  };
});
afterAll(() => t.close());

const history = async (id: string, query = '') => {
  const res = await t.request({
    method: 'GET',
    url: `/api/users/${id}/history${query}`,
    as: t.viewer,
  });
  expect(res.statusCode).toBe(200);
  expectContract(HandlerHistoryResponseSchema, res.json());
  return res.json<{ data: HandlerChange[]; next_cursor?: string }>();
};

const actorOf = (account: Account) => ({
  id: account.id,
  username: account.username,
  role: account.role,
});

describe('GET /api/users/:id/history', () => {
  it('records each kind of write with its actor and its field changes, newest first', async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const writes = [
      {
        method: 'PUT',
        url: `/api/users/${handlerId}`,
        payload: { phone: '0171 2', address: 'Weg 1' },
        as: t.admin,
      },
      {
        method: 'PUT',
        url: `/api/users/${handlerId}/availability`,
        payload: { available: true, availableUntil: until },
        as: handlerAccount,
      },
      {
        method: 'PUT',
        url: `/api/users/${handlerId}/gps`,
        payload: { lat: 50.5, lng: 9.5 },
        as: handlerAccount,
      },
    ] as const;
    for (const write of writes) expect((await t.request(write)).statusCode).toBe(200);

    const { data } = await history(handlerId);
    expect(data.map((entry) => [entry.action, entry.actor?.username])).toEqual([
      ['gps', 'hanna.h'],
      ['availability', 'hanna.h'],
      ['update', t.admin.username],
      ['create', t.admin.username],
    ]);
    const [gps, availability, update, create] = data as [
      HandlerChange,
      HandlerChange,
      HandlerChange,
      HandlerChange,
    ];
    expect(gps.actor).toEqual(actorOf(handlerAccount));
    expect(gps.changes).toEqual([{ field: 'gps', before: null, after: { lat: 50.5, lng: 9.5 } }]);
    expect(availability.changes).toEqual([
      { field: 'availableUntil', before: null, after: until },
      { field: 'availabilityConfirmedAt', before: expect.any(String), after: expect.any(String) },
    ]);
    expect(update.actor).toEqual(actorOf(t.admin));
    expect(update.changes).toEqual([
      { field: 'address', before: null, after: 'Weg 1' },
      { field: 'phone', before: '0171 1', after: '0171 2' },
    ]);
    expect(create.changes.map((change) => change.field)).toEqual(
      expect.arrayContaining(['name', 'phone', 'available', 'availabilityConfirmedAt']),
    );
    expect(create.changes.every((change) => change.before === null)).toBe(true);
    for (const entry of data) expect(entry.handlerId).toBe(handlerId);
    expect(Date.parse(data[0]!.at)).toBeGreaterThanOrEqual(Date.parse(data[3]!.at));
  });

  it('keeps a deleted handler’s history, readable by its id, with the delete last', async () => {
    const doomed = await createHandler(t, { name: 'Wird Gelöscht' });
    const del = await t.request({ method: 'DELETE', url: `/api/users/${doomed._id}`, as: t.admin });
    expect(del.statusCode).toBe(200);
    const { data } = await history(doomed._id);
    expect(data.map((entry) => entry.action)).toEqual(['delete', 'create']);
    expect(data[0]!.changes).toContainEqual({
      field: 'name',
      before: 'Wird Gelöscht',
      after: null,
    });
  });

  it('writes nothing for a refused write', async () => {
    const before = (await history(handlerId)).data.length;
    const refused = await t.request({
      method: 'PUT',
      url: `/api/users/${handlerId}/availability`,
      payload: { available: true, availableUntil: new Date(Date.now() - 1000).toISOString() },
      as: t.admin,
    });
    expect(refused.statusCode).toBe(400);
    expect((await history(handlerId)).data).toHaveLength(before);
  });

  it('20 concurrent writes to one handler leave 20 entries, each with its own change', async () => {
    const target = await createHandler(t, { name: 'Viel Verkehr', phone: '0' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request({
          method: 'PUT',
          url: `/api/users/${target._id}`,
          payload: { phone: `0171 ${i + 1}` },
          as: t.admin,
        }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(results.map(() => 200));
    const { data } = await history(target._id, '?limit=200');
    const updates = data.filter((entry) => entry.action === 'update');
    expect(updates).toHaveLength(20);
    // Each entry's before is what the write before it left: the changes form one chain.
    const chain = updates.map((entry) => entry.changes.find((c) => c.field === 'phone')!).reverse();
    expect(chain[0]!.before).toBe('0');
    for (let i = 1; i < chain.length; i += 1) expect(chain[i]!.before).toBe(chain[i - 1]!.after);
    const stored = await t.request({ method: 'GET', url: `/api/users/${target._id}`, as: t.admin });
    expect(stored.json().data.phone).toBe(chain.at(-1)!.after);
  });

  it('pages with limit and cursor, newest first, without repeating an entry', async () => {
    const all = (await history(handlerId)).data;
    const first = await history(handlerId, '?limit=2');
    expect(first.data).toEqual(all.slice(0, 2));
    const second = await history(handlerId, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.data).toEqual(all.slice(2, 4));
    expectDirectoryError(
      await t.request({
        method: 'GET',
        url: `/api/users/${handlerId}/history?cursor=nope`,
        as: t.admin,
      }),
      400,
    );
  });

  it('answers an empty list for an id that names nothing, and 403 to a handler account', async () => {
    expect((await history('0123456789abcdef01234567')).data).toEqual([]);
    const res = await t.request({
      method: 'GET',
      url: `/api/users/${handlerId}/history`,
      as: handlerAccount,
    });
    expect(res.statusCode).toBe(403);
  });
});
