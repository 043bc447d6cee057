// The admin list's filters (q, available, type), its orders (name, updatedAt) and its pages; the
// export takes the same filters. Without parameters it answers as it always has.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HandlerListResponseSchema } from '@dogshop/contracts/handler-directory';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectDirectoryError } from './support/contract.js';
import { createHandler, names } from './support/handlers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seedDemo: false });
  await createHandler(t, {
    name: 'Jürgen Größmann',
    address: 'Heideweg 1, Soltau',
    phone: '0171 111',
    type: 'SW',
  });
  await createHandler(t, {
    name: 'Anna Müller',
    address: 'Am Forst 2',
    phone: '+49 30 222',
    type: 'BGS',
  });
  await createHandler(t, { name: 'Öttl Ludwig', phone: '0800 333', available: false, type: 'SW' });
  await createHandler(t, { name: 'Bernd Strauss', address: 'Straße 4', phone: '0171 444' });
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/users${query}`, as: t.viewer });
  expect(res.statusCode).toBe(200);
  expectContract(HandlerListResponseSchema, res.json());
  return res.json<{ data: Array<{ name: string; updatedAt: string }>; next_cursor?: string }>();
};

describe('GET /api/users with filters', () => {
  it('without parameters lists everyone by name, as before', async () => {
    expect(names(await list(''))).toEqual([
      'Anna Müller',
      'Bernd Strauss',
      'Jürgen Größmann',
      'Öttl Ludwig',
    ]);
  });

  it('q finds name, address or phone, ignoring case, umlauts and ß', async () => {
    expect(names(await list('?q=MUELLER'))).toEqual([]);
    expect(names(await list('?q=muller'))).toEqual(['Anna Müller']);
    expect(names(await list('?q=GROSS'))).toEqual(['Jürgen Größmann']);
    expect(names(await list('?q=strasse'))).toEqual(['Bernd Strauss']);
    expect(names(await list('?q=heideweg'))).toEqual(['Jürgen Größmann']);
    expect(names(await list('?q=0171'))).toEqual(['Bernd Strauss', 'Jürgen Größmann']);
    expect(names(await list('?q=ottl'))).toEqual(['Öttl Ludwig']);
    // Regular-expression characters are text.
    expect(names(await list('?q=%2B49'))).toEqual(['Anna Müller']);
    expect(names(await list('?q=.*'))).toEqual([]);
  });

  it('filters by available and type, all filters together', async () => {
    expect(names(await list('?available=false'))).toEqual(['Öttl Ludwig']);
    expect(names(await list('?type=SW'))).toEqual(['Jürgen Größmann', 'Öttl Ludwig']);
    expect(names(await list('?type=SW&available=true'))).toEqual(['Jürgen Größmann']);
    expect(names(await list('?type=SW&available=true&q=anna'))).toEqual([]);
  });

  it('sorts by last change, newest first, and pages either order without repeats', async () => {
    const byUpdate = await list('?sort=updatedAt');
    const times = byUpdate.data.map((h) => Date.parse(h.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const sort of ['name', 'updatedAt']) {
      const all = names(await list(`?sort=${sort}`));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(`?sort=${sort}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...names(page));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual(all);
    }
  });

  it('refuses a cursor without limit, of the other order, or not ours', async () => {
    const page = await list('?limit=1');
    expectDirectoryError(
      await t.request({ method: 'GET', url: `/api/users?cursor=${page.next_cursor}`, as: t.admin }),
      400,
      'Ungültige Anfrage: cursor nur zusammen mit limit',
    );
    expectDirectoryError(
      await t.request({
        method: 'GET',
        url: `/api/users?limit=1&sort=updatedAt&cursor=${page.next_cursor}`,
        as: t.admin,
      }),
      400,
    );
    expectDirectoryError(
      await t.request({ method: 'GET', url: '/api/users?limit=1&cursor=abc', as: t.admin }),
      400,
    );
  });

  it('exports only the filtered handlers', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/users/export?type=SW&available=true',
      as: t.viewer,
    });
    expect(res.json().data.map((h: { name: string }) => h.name)).toEqual(['Jürgen Größmann']);
    const csv = await t.request({
      method: 'GET',
      url: '/api/users/export?format=csv&q=muller',
      as: t.viewer,
    });
    expect(csv.body.trim().split('\r\n')).toHaveLength(2);
  });
});
