// The back office's reviews: the list (hidden ones too), hiding and showing one with its audit
// entry, and what a hidden review leaves: the public lists and the rating summary, exactly, also
// while new reviews arrive. Its author still has their one review of the product.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AdminReviewListResponseSchema,
  AdminReviewResponseSchema,
  type ReviewSummary,
} from '@dogshop/contracts/shop';
import { createTestApp, type TestApp } from './support/app.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';
import { addProduct } from './support/orders.js';
import { keyWith, staffMember, type SignedInStaffMember } from './support/staff.js';

let t: TestApp;
let moderator: SignedInStaffMember;
let viewer: SignedInStaffMember;
let lead: number;
let collar: number;
const authors: RegisteredCustomer[] = [];
/** Review ids by name: `lead5` is the 5-star review of the lead. */
const review: Record<string, number> = {};

const postReview = (product: number, author: RegisteredCustomer, rating: number) =>
  t.app.inject({
    method: 'POST',
    url: `/products/${product}/reviews`,
    headers: bearer(author.token),
    payload: { rating, title: `${rating} stars`, comment: `A review worth ${rating} stars.` },
  });

beforeAll(async () => {
  t = await createTestApp();
  moderator = await staffMember(t, 'staff', 'Mia Moderator');
  viewer = await staffMember(t, 'viewer');
  lead = await addProduct(t.app, 'Moderated lead', '20.00', 10);
  collar = await addProduct(t.app, 'Moderated collar', '15.00', 10, false);
  for (const [first_name, last_name] of [
    ['Ann', 'Five'],
    ['Ben', 'Four'],
    ['Cem', 'One'],
  ] as const) {
    authors.push(await registerCustomer(t, { first_name, last_name }));
  }
  // Oldest first: the list shows them newest first.
  for (const [name, product, author, rating] of [
    ['lead5', lead, authors[0]!, 5],
    ['lead4', lead, authors[1]!, 4],
    ['lead1', lead, authors[2]!, 1],
  ] as const) {
    const res = await postReview(product, author, rating);
    expect(res.statusCode).toBe(201);
    review[name] = res.json().data.review_id as number;
  }
  // A review of a product that is no longer active (written before it was deactivated).
  await t.app.db.product.update({ where: { id: collar }, data: { active: true } });
  const old = await postReview(collar, authors[0]!, 3);
  review.collar3 = old.json().data.review_id as number;
  await t.app.db.product.update({ where: { id: collar }, data: { active: false } });
});
afterAll(() => t.close());

const get = (url: string, who: SignedInStaffMember = moderator) =>
  t.app.inject({ method: 'GET', url, headers: bearer(who.token) });
const moderate = (id: number, body: unknown, who: SignedInStaffMember = moderator) =>
  t.app.inject({
    method: 'PATCH',
    url: `/admin/reviews/${id}`,
    headers: bearer(who.token),
    payload: body as Record<string, unknown>,
  });
const ids = (res: { json: () => unknown }) =>
  (res.json() as { data: Array<{ id: number }> }).data.map((r) => r.id);

/** The public list of the lead: its review ids and its summary. */
async function publicLead(query = '') {
  const res = await t.request({ method: 'GET', url: `/products/${lead}/reviews${query}` });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as {
    reviews: Array<{ id: number }>;
    summary: ReviewSummary;
    pagination: { total: number };
  };
  return {
    ids: data.reviews.map((r) => r.id),
    summary: data.summary,
    total: data.pagination.total,
  };
}

describe('the review list', () => {
  it('lists every review newest first, with its product and author as the public list shows them', async () => {
    const res = await get('/admin/reviews');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectContract(AdminReviewListResponseSchema, res.json());
    expect(ids(res)).toEqual([review.collar3, review.lead1, review.lead4, review.lead5]);
    expect(res.json().data[0]).toMatchObject({
      product_id: collar,
      product_name: 'Moderated collar',
      customer_id: authors[0]!.id,
      first_name: 'Ann',
      last_name: 'Five',
      rating: 3,
      title: '3 stars',
      hidden: false,
    });
    // The same review as the public list shows it, plus the product's name and the state.
    const shown = (await publicLead()).ids;
    expect(shown).toEqual([review.lead1, review.lead4, review.lead5]);
    const publicReview = (
      await t.request({ method: 'GET', url: `/products/${lead}/reviews` })
    ).json().data.reviews[0];
    const adminReview = res.json().data[1];
    expect(adminReview).toEqual({ ...publicReview, product_name: 'Moderated lead', hidden: false });
  });

  it('narrows to a product, pages with a cursor, and refuses a cursor it did not give', async () => {
    const first = await get(`/admin/reviews?product_id=${lead}&limit=2`);
    expect(ids(first)).toEqual([review.lead1, review.lead4]);
    const next = first.json().pagination.next_cursor as string;
    const second = await get(`/admin/reviews?product_id=${lead}&limit=2&cursor=${next}`);
    expect(ids(second)).toEqual([review.lead5]);
    expect(second.json().pagination).toEqual({ limit: 2, next_cursor: null });
    expect(ids(await get('/admin/reviews?product_id=2000000000'))).toEqual([]);
    expectShopError(await get('/admin/reviews?cursor=bm9wZQ'), 400, /cursor/);
    const customersCursor = Buffer.from(
      JSON.stringify(['customers', '2026-01-01T00:00:00.000Z', 1]),
    ).toString('base64url');
    expectShopError(await get(`/admin/reviews?cursor=${customersCursor}`), 400, /cursor/);
    expectShopError(await get('/admin/reviews?hidden=maybe'), 400);
    expectShopError(await get('/admin/reviews?product_id=0x1'), 400);
  });
});

describe('hiding a review', () => {
  it('takes it out of the public list, the product’s newest reviews and the rating summary', async () => {
    const before = await publicLead();
    expect(before.summary).toEqual({
      average_rating: 3.33,
      total_reviews: 3,
      rating_distribution: [
        { rating: 5, count: 1 },
        { rating: 4, count: 1 },
        { rating: 3, count: 0 },
        { rating: 2, count: 0 },
        { rating: 1, count: 1 },
      ],
    });

    const res = await moderate(review.lead1!, { hidden: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectContract(AdminReviewResponseSchema, res.json());
    expect(res.json().data).toMatchObject({ id: review.lead1, hidden: true, rating: 1 });

    const after = await publicLead();
    expect(after.ids).toEqual([review.lead4, review.lead5]);
    expect(after.total).toBe(2);
    expect(after.summary).toEqual({
      average_rating: 4.5,
      total_reviews: 2,
      rating_distribution: [
        { rating: 5, count: 1 },
        { rating: 4, count: 1 },
        { rating: 3, count: 0 },
        { rating: 2, count: 0 },
        { rating: 1, count: 0 },
      ],
    });
    // Filtered and sorted pages leave it out as well.
    expect(await publicLead('?rating=1')).toMatchObject({ ids: [], total: 0 });
    expect((await publicLead('?sort=rating')).ids).toEqual([review.lead5, review.lead4]);
    expect((await publicLead('?sort=oldest')).ids).toEqual([review.lead5, review.lead4]);
    const detail = await t.request({ method: 'GET', url: `/products/${lead}` });
    expect(detail.json().data.reviews.map((r: { id: number }) => r.id)).toEqual([
      review.lead4,
      review.lead5,
    ]);

    // The back office still lists it, marked; `hidden` narrows the list.
    expect(ids(await get('/admin/reviews?hidden=true'))).toEqual([review.lead1]);
    expect(ids(await get(`/admin/reviews?hidden=false&product_id=${lead}`))).toEqual([
      review.lead4,
      review.lead5,
    ]);
  });

  it('records who hid it, before and after; the same state again changes nothing', async () => {
    const entries = () =>
      t.app.db.auditEntry.findMany({
        where: { resource: 'review', resourceId: String(review.lead1) },
        orderBy: { id: 'asc' },
      });
    expect(
      (await entries()).map((e) => [
        e.action,
        e.actorType,
        e.actorId,
        e.actorName,
        e.before,
        e.after,
      ]),
    ).toEqual([
      [
        'review.moderate',
        'staff',
        moderator.id,
        'Mia Moderator',
        { hidden: false },
        { hidden: true },
      ],
    ]);
    const again = await moderate(review.lead1!, { hidden: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.hidden).toBe(true);
    expect(await entries()).toHaveLength(1);
  });

  it('keeps it its author’s one review of the product (a second one is still 409)', async () => {
    const second = await postReview(lead, authors[2]!, 5);
    expectShopError(second, 409, /already reviewed/);
    expect(await t.app.db.review.count({ where: { productId: lead } })).toBe(3);
  });

  it('shows it again, with its own audit entry, when a key with reviews:moderate says so', async () => {
    const key = await keyWith(t, { kind: 'secret', scopes: ['reviews:moderate'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/admin/reviews/${review.lead1}`,
      headers: { 'x-api-key': key },
      payload: { hidden: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.hidden).toBe(false);
    expect((await publicLead()).summary.total_reviews).toBe(3);
    const [last] = await t.app.db.auditEntry.findMany({
      where: { resource: 'review', resourceId: String(review.lead1) },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(last).toMatchObject({
      actorType: 'api_key',
      actorName: 'test secret key',
      before: { hidden: true },
      after: { hidden: false },
    });
  });

  it('answers 404 for a review nobody wrote and 400 for a body that is not {hidden}', async () => {
    expectShopError(await moderate(2_000_000_000, { hidden: true }), 404, /Review 2000000000/);
    expectShopError(await moderate(review.lead4!, {}), 400, /hidden/);
    expectShopError(await moderate(review.lead4!, { hidden: 'yes' }), 400, /hidden/);
    expectShopError(await moderate(review.lead4!, { hidden: true, rating: 5 }), 400);
    expectShopError(await moderate(0, { hidden: true }), 400);
    expect((await publicLead()).summary.total_reviews).toBe(3);
  });
});

describe('who may moderate', () => {
  it('lets a viewer read the list but not change a review; other scopes and a customer are refused', async () => {
    expect((await get('/admin/reviews', viewer)).statusCode).toBe(200);
    expectShopError(await moderate(review.lead4!, { hidden: true }, viewer), 403, /viewer/);
    const other = await keyWith(t, { kind: 'secret', scopes: ['customers:read', 'orders:write'] });
    const asOther = await t.app.inject({
      method: 'GET',
      url: '/admin/reviews',
      headers: { 'x-api-key': other },
    });
    expectShopError(asOther, 403, /lacks the scope reviews:moderate/);
    const asCustomer = await t.app.inject({
      method: 'PATCH',
      url: `/admin/reviews/${review.lead4}`,
      headers: bearer(authors[1]!.token),
      payload: { hidden: true },
    });
    expectShopError(asCustomer, 401);
    expect((await publicLead()).ids).toContain(review.lead4);
  });
});

describe('the summary under concurrent reviews and moderation', () => {
  it('stays exact: every answer adds up, and the last equals the visible reviews', async () => {
    const product = await addProduct(t.app, 'Busy lead', '9.00', 10);
    const writers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => registerCustomer(t, { first_name: `Writer${i}` })),
    );
    const [first, second] = writers;
    const early = [
      (await postReview(product, first!, 2)).json().data.review_id as number,
      (await postReview(product, second!, 5)).json().data.review_id as number,
    ];
    const summaries: ReviewSummary[] = [];
    const read = async () => {
      const res = await t.request({ method: 'GET', url: `/products/${product}/reviews` });
      summaries.push(res.json().data.summary as ReviewSummary);
    };
    const toggles = (id: number) => async () => {
      for (const hidden of [true, false, true]) {
        expect((await moderate(id, { hidden })).statusCode).toBe(200);
      }
    };
    await Promise.all([
      ...writers.slice(2).map(async (writer, i) => {
        expect((await postReview(product, writer, (i % 5) + 1)).statusCode).toBe(201);
      }),
      toggles(early[0]!)(),
      toggles(early[1]!)(),
      ...Array.from({ length: 6 }, read),
    ]);
    await read();

    for (const summary of summaries) {
      const counted = summary.rating_distribution.reduce((n, d) => n + d.count, 0);
      const points = summary.rating_distribution.reduce((n, d) => n + d.rating * d.count, 0);
      expect(summary.total_reviews).toBe(counted);
      expect(summary.average_rating).toBe(
        counted === 0 ? 0 : Math.round((points * 100) / counted) / 100,
      );
    }
    const visible = await t.app.db.review.findMany({
      where: { productId: product, hidden: false },
      select: { rating: true },
    });
    expect(visible).toHaveLength(4); // the four new ones; both early ones ended hidden
    const last = summaries.at(-1)!;
    expect(last.total_reviews).toBe(4);
    expect(last.rating_distribution).toEqual(
      [5, 4, 3, 2, 1].map((rating) => ({
        rating,
        count: visible.filter((v) => v.rating === rating).length,
      })),
    );
    // Each change left exactly one audit entry, in the order the changes were made.
    for (const id of early) {
      const audit = await t.app.db.auditEntry.findMany({
        where: { resource: 'review', resourceId: String(id) },
        orderBy: { id: 'asc' },
      });
      expect(audit.map((e) => [e.before, e.after])).toEqual([
        [{ hidden: false }, { hidden: true }],
        [{ hidden: true }, { hidden: false }],
        [{ hidden: false }, { hidden: true }],
      ]);
    }
  });
});

describe('the public statements’ indexes', () => {
  it('read the visible reviews through the partial indexes, the counts from the index alone', async () => {
    await t.app.db.$executeRawUnsafe('VACUUM ANALYZE reviews');
    const plan = (sql: string) =>
      t.app.db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
        await tx.$executeRawUnsafe('SET LOCAL enable_bitmapscan = off');
        const rows = await tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql}`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    // The summary's counts per rating, as modules/reviews/repository.ts asks for them: from the
    // index alone, `hidden` never read (the index holds only visible reviews).
    const counts = await plan(
      `SELECT rating, count(*) FROM reviews WHERE product_id = ${lead} AND NOT hidden GROUP BY rating`,
    );
    expect(counts).toMatch(
      /Index Only Scan (Backward )?using reviews_product_id_rating_created_at_id_idx/,
    );
    expect(counts).not.toMatch(/Filter/);
    // The newest page: the first rows of the partial index's range.
    const page = await plan(
      `SELECT id FROM reviews r WHERE r.product_id = ${lead} AND NOT r.hidden ORDER BY r.created_at DESC, r.id DESC LIMIT 10`,
    );
    expect(page).toMatch(/Index (Only )?Scan using reviews_product_id_created_at_id_idx/);
    expect(page).not.toMatch(/Filter|Sort/);
  });
});
