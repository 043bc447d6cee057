import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CreateReviewResponseSchema,
  ProductDetailResponseSchema,
  ReviewListResponseSchema,
} from '@dogshop/contracts/shop';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from './support/app.js';
import { seedCatalogue } from './support/catalogue.js';
import { expectContract, expectShopError } from './support/contract.js';
import { bearer, registerCustomer, type RegisteredCustomer } from './support/customers.js';

let t: TestApp;
let ids: Awaited<ReturnType<typeof seedCatalogue>>;
let seeded = 0;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  ids = await seedCatalogue(t.app);
});
afterAll(() => t.close());

/**
 * Reviews written straight to the database with chosen ratings and times, so order and summary
 * are known in advance; each by its own customer (one review per customer and product).
 */
async function seedReviews(productId: number, reviews: Array<{ rating: number; createdAt: Date }>) {
  const created: number[] = [];
  for (const review of reviews) {
    seeded += 1;
    const customer = await t.app.db.customer.create({
      data: {
        email: `seeded-${seeded}@example.com`,
        passwordHash: 'unused',
        firstName: `First${seeded}`,
        lastName: `Last${seeded}`,
      },
    });
    const row = await t.app.db.review.create({
      data: {
        productId,
        customerId: customer.id,
        rating: review.rating,
        title: `Review ${seeded}`,
        comment: `Seeded review number ${seeded}`,
        createdAt: review.createdAt,
      },
    });
    created.push(row.id);
  }
  return created;
}

const list = (productId: number, query = '') =>
  t.request({ method: 'GET', url: `/products/${productId}/reviews${query ? `?${query}` : ''}` });

const reviewIds = (res: { json: () => { data: { reviews: Array<{ id: number }> } } }) =>
  res.json().data.reviews.map((r) => r.id);

/** POST without X-API-Key: the bearer token alone authorises writing a review. */
const post = (
  productId: number,
  token: string | undefined,
  payload: unknown,
  extra: Partial<InjectOptions> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/products/${productId}/reviews`,
    headers: token ? bearer(token) : {},
    payload: payload as InjectOptions['payload'],
    ...extra,
  });

const validReview = {
  rating: 4,
  title: 'Solid lead',
  comment: 'Held up through a whole season of tracking.',
};

describe('GET /products/:id/reviews', () => {
  // Blue lead: ratings 5, 4, 4 at increasing times → newest first is [third, second, first].
  let first: number, second: number, third: number;

  beforeAll(async () => {
    const start = Date.now() - 10 * DAY;
    [first, second, third] = (await seedReviews(ids.productId('Blue lead'), [
      { rating: 5, createdAt: new Date(start) },
      { rating: 4, createdAt: new Date(start + HOUR) },
      { rating: 4, createdAt: new Date(start + 2 * HOUR) },
    ])) as [number, number, number];
  });

  it('lists reviews with pagination and summary, matching the contract', async () => {
    const res = await list(ids.productId('Blue lead'));
    expect(res.statusCode).toBe(200);
    expectContract(ReviewListResponseSchema, res.json());
    const { data } = res.json();
    expect(data.pagination).toEqual({ page: 1, limit: 10, total: 3, pages: 1 });
    expect(data.reviews[0]).toMatchObject({
      product_id: ids.productId('Blue lead'),
      rating: 4,
      helpful_count: 0,
      first_name: expect.stringMatching(/^First/),
      last_name: expect.stringMatching(/^Last/),
    });
  });

  it('sorts newest first by default, oldest first, and by rating then newest', async () => {
    const id = ids.productId('Blue lead');
    expect(reviewIds(await list(id))).toEqual([third, second, first]);
    expect(reviewIds(await list(id, 'sort=newest'))).toEqual([third, second, first]);
    expect(reviewIds(await list(id, 'sort=oldest'))).toEqual([first, second, third]);
    expect(reviewIds(await list(id, 'sort=rating'))).toEqual([first, third, second]);
  });

  it('filters by rating while the summary still covers every review', async () => {
    const res = await list(ids.productId('Blue lead'), 'rating=4');
    const { data } = res.json();
    expect(data.reviews.map((r: { id: number }) => r.id)).toEqual([third, second]);
    expect(data.pagination).toEqual({ page: 1, limit: 10, total: 2, pages: 1 });
    expect(data.summary.total_reviews).toBe(3);

    const none = (await list(ids.productId('Blue lead'), 'rating=1')).json().data;
    expect(none.reviews).toEqual([]);
    expect(none.pagination.total).toBe(0);
    expect(none.summary.total_reviews).toBe(3);
  });

  it('gives all five ratings in the distribution, 5 down to 1, zeros included', async () => {
    const { summary } = (await list(ids.productId('Blue lead'))).json().data;
    expect(summary.rating_distribution).toEqual([
      { rating: 5, count: 1 },
      { rating: 4, count: 2 },
      { rating: 3, count: 0 },
      { rating: 2, count: 0 },
      { rating: 1, count: 0 },
    ]);
  });

  it('rounds the average to two decimals (5, 4, 4 → 4.33)', async () => {
    const { summary } = (await list(ids.productId('Blue lead'))).json().data;
    expect(summary.average_rating).toBe(4.33);
  });

  it('summarises a product without reviews as zeros', async () => {
    const res = await list(ids.productId('Binoculars 8x42'));
    expectContract(ReviewListResponseSchema, res.json());
    expect(res.json().data).toEqual({
      reviews: [],
      pagination: { page: 1, limit: 10, total: 0, pages: 0 },
      summary: {
        average_rating: 0,
        total_reviews: 0,
        rating_distribution: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: 0 })),
      },
    });
  });

  it('pages through the filtered list without overlap', async () => {
    const id = ids.productId('Dog bowl');
    const start = Date.now() - 20 * DAY;
    const all = await seedReviews(
      id,
      Array.from({ length: 25 }, (_, i) => ({
        rating: (i % 5) + 1,
        createdAt: new Date(start + i * HOUR),
      })),
    );
    const p1 = (await list(id, 'limit=10&page=1')).json().data;
    const p3 = (await list(id, 'limit=10&page=3')).json().data;
    const p4 = (await list(id, 'limit=10&page=4')).json().data;
    expect(p1.pagination).toEqual({ page: 1, limit: 10, total: 25, pages: 3 });
    expect(p3.reviews).toHaveLength(5);
    expect(p4.reviews).toEqual([]);
    const seen = [];
    for (let page = 1; page <= 3; page++)
      seen.push(...reviewIds(await list(id, `limit=10&page=${page}`)));
    expect(seen).toEqual([...all].reverse());

    const fives = (await list(id, 'rating=5&limit=2&page=2')).json().data;
    expect(fives.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3 });
    expect(fives.summary.total_reviews).toBe(25);
    expect(fives.summary.average_rating).toBe(3);
  });

  it.each([
    ['limit=0', /limit/],
    ['limit=51', /limit/],
    ['page=0', /page/],
    ['page=abc', /page/],
    ['rating=0', /rating/],
    ['rating=6', /rating/],
    ['sort=best', /sort/],
    ['unknown=1', /unknown/],
  ])('answers 400 for %s', async (query, message) => {
    expectShopError(await list(ids.productId('Blue lead'), query), 400, message);
  });

  it('accepts limit 1 and 50', async () => {
    expect((await list(ids.productId('Blue lead'), 'limit=1')).json().data.reviews).toHaveLength(1);
    expect((await list(ids.productId('Blue lead'), 'limit=50')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown or inactive product', async () => {
    expectShopError(await list(999_999), 404, /not found/);
    expectShopError(await list(ids.productId('Old collar')), 404, /not found/);
  });

  it('requires the API key', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/products/${ids.productId('Blue lead')}/reviews`,
    });
    expectShopError(res, 401);
  });
});

describe('POST /products/:id/reviews', () => {
  let author: RegisteredCustomer;

  beforeAll(async () => {
    author = await registerCustomer(t, { first_name: 'Greta', last_name: 'Tracker' });
  });

  it('creates a review (201, contract) that shows first in the product detail, with the author names', async () => {
    const id = ids.productId('Red tracking lead');
    const start = Date.now() - 5 * DAY;
    await seedReviews(
      id,
      Array.from({ length: 12 }, (_, i) => ({ rating: 3, createdAt: new Date(start + i * HOUR) })),
    );
    const res = await post(id, author.token, {
      ...validReview,
      title: '  Great lead  ',
      comment: '\n Bright orange, easy to see in the undergrowth. ',
    });
    expect(res.statusCode).toBe(201);
    expectContract(CreateReviewResponseSchema, res.json());
    const reviewId = res.json().data.review_id;

    const detail = await t.request({ method: 'GET', url: `/products/${id}` });
    expectContract(ProductDetailResponseSchema, detail.json());
    const { reviews } = detail.json().data;
    expect(reviews).toHaveLength(10);
    expect(reviews[0]).toMatchObject({
      id: reviewId,
      product_id: id,
      customer_id: author.id,
      rating: 4,
      title: 'Great lead',
      comment: 'Bright orange, easy to see in the undergrowth.',
      first_name: 'Greta',
      last_name: 'Tracker',
      helpful_count: 0,
    });
  });

  it('answers 409 for a second review of the same product by the same customer', async () => {
    const res = await post(ids.productId('Red tracking lead'), author.token, validReview);
    expectShopError(res, 409, /already reviewed/);
    expect(
      await t.app.db.review.count({
        where: { productId: ids.productId('Red tracking lead'), customerId: author.id },
      }),
    ).toBe(1);
  });

  it('lets exactly one of ten simultaneous identical reviews through; the others are 409', async () => {
    const racer = await registerCustomer(t);
    const id = ids.productId('Binoculars 8x42');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(id, racer.token, validReview)),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409)) expectShopError(r, 409);
    expect(await t.app.db.review.count({ where: { productId: id, customerId: racer.id } })).toBe(1);
  });

  describe('bounds', () => {
    let writer: RegisteredCustomer;
    beforeAll(async () => {
      writer = await registerCustomer(t);
    });

    it.each([
      { name: 'title of 2 characters', change: { title: 'ab' }, status: 400, message: /title/ },
      { name: 'title of 3 characters', change: { title: 'abc' }, status: 201 },
      { name: 'title of 100 characters', change: { title: 'x'.repeat(100) }, status: 201 },
      {
        name: 'title of 101 characters',
        change: { title: 'x'.repeat(101) },
        status: 400,
        message: /title/,
      },
      {
        name: 'title below 3 after trimming',
        change: { title: '  ab  ' },
        status: 400,
        message: /title/,
      },
      { name: 'whitespace-only title', change: { title: '      ' }, status: 400, message: /title/ },
      {
        name: 'padded title of 100 characters',
        change: { title: `  ${'x'.repeat(100)}  ` },
        status: 201,
      },
      {
        name: 'comment of 9 characters',
        change: { comment: 'x'.repeat(9) },
        status: 400,
        message: /comment/,
      },
      { name: 'comment of 10 characters', change: { comment: 'x'.repeat(10) }, status: 201 },
      { name: 'comment of 1000 characters', change: { comment: 'x'.repeat(1000) }, status: 201 },
      {
        name: 'comment of 1001 characters',
        change: { comment: 'x'.repeat(1001) },
        status: 400,
        message: /comment/,
      },
      {
        name: 'comment below 10 after trimming',
        change: { comment: `   ${'x'.repeat(9)}   ` },
        status: 400,
        message: /comment/,
      },
      { name: 'rating 0', change: { rating: 0 }, status: 400, message: /rating/ },
      { name: 'rating 1', change: { rating: 1 }, status: 201 },
      { name: 'rating 5', change: { rating: 5 }, status: 201 },
      { name: 'rating 6', change: { rating: 6 }, status: 400, message: /rating/ },
      { name: 'rating 4.5', change: { rating: 4.5 }, status: 400, message: /rating/ },
      { name: 'rating "5" (a string)', change: { rating: '5' }, status: 400, message: /rating/ },
      {
        name: 'an unknown field',
        change: { helpful_count: 100 },
        status: 400,
        message: /unknown field 'helpful_count'/,
      },
    ] as Array<{
      name: string;
      change: Record<string, unknown>;
      status: number;
      message?: RegExp;
    }>)('$name → $status', async ({ change, status, message }) => {
      const id = ids.productId('Dog bowl');
      const body = { ...validReview, ...change };
      const res = await post(id, writer.token, body);
      if (status === 201) {
        expect(res.statusCode).toBe(201);
        const row = await t.app.db.review.findUniqueOrThrow({
          where: { id: res.json().data.review_id },
        });
        expect(row).toMatchObject({
          rating: body.rating,
          title: body.title.trim(),
          comment: body.comment.trim(),
        });
        // Clean up so the next accepted case is not the writer's second review.
        await t.app.db.review.deleteMany({ where: { productId: id, customerId: writer.id } });
      } else {
        expectShopError(res, status, message);
      }
    });

    it.each(['rating', 'title', 'comment'])('answers 400 when %s is missing', async (field) => {
      const body: Record<string, unknown> = { ...validReview };
      delete body[field];
      expectShopError(
        await post(ids.productId('Dog bowl'), writer.token, body),
        400,
        new RegExp(field),
      );
    });
  });

  it('answers 404 for an unknown or inactive product', async () => {
    expectShopError(await post(999_999, author.token, validReview), 404, /not found/);
    expectShopError(
      await post(ids.productId('Old collar'), author.token, validReview),
      404,
      /not found/,
    );
  });

  it('answers 401 without a token or with an invalid one, and writes nothing', async () => {
    const id = ids.productId('Blue lead');
    const before = await t.app.db.review.count();
    expectShopError(await post(id, undefined, validReview), 401);
    expectShopError(await post(id, `${author.token}x`, validReview), 401);
    // An API key is no substitute for the customer's token.
    expectShopError(
      await t.request({ method: 'POST', url: `/products/${id}/reviews`, payload: validReview }),
      401,
    );
    expect(await t.app.db.review.count()).toBe(before);
  });

  it('does not require X-API-Key (the bearer token alone authorises it; a bad key is not consulted)', async () => {
    const reviewer = await registerCustomer(t);
    expect((await post(ids.productId('Blue lead'), reviewer.token, validReview)).statusCode).toBe(
      201,
    );
    const withBadKey = await post(ids.productId('Dog bowl'), reviewer.token, validReview, {
      headers: { ...bearer(reviewer.token), 'x-api-key': 'not-a-key' },
    });
    expect(withBadKey.statusCode).toBe(201);
  });
});
