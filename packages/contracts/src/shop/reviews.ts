import { Type, type Static } from 'typebox';
import { DataEnvelope, PaginationSchema, documented, notBlank } from '../common.js';
import { shopErrors } from './errors.js';
import { DateTime, Id, IdParamsSchema, pageQuery } from './shared.js';
import { shopTag } from './tags.js';

export const ReviewSchema = Type.Object(
  {
    id: Id(),
    product_id: Id(),
    customer_id: Id(),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    title: Type.String(),
    comment: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    helpful_count: Type.Integer({ minimum: 0 }),
    created_at: DateTime(),
  },
  { $id: 'Review', title: 'Review', additionalProperties: false },
);
export type Review = Static<typeof ReviewSchema>;

export const ReviewListQuerySchema = Type.Object(
  {
    ...pageQuery('Reviews per page', 10),
    sort: Type.Union([Type.Literal('newest'), Type.Literal('oldest'), Type.Literal('rating')], {
      default: 'newest',
      description: '`rating` is rating descending, then newest',
      examples: ['rating'],
    }),
    rating: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 5,
        description: 'Only reviews with this rating',
        examples: [5],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewListQuery = Static<typeof ReviewListQuerySchema>;

export const ReviewSummarySchema = Type.Object(
  {
    average_rating: Type.Number({
      minimum: 0,
      maximum: 5,
      description: 'Rounded to 2 decimals; 0 when none',
    }),
    total_reviews: Type.Integer({ minimum: 0 }),
    rating_distribution: Type.Array(
      Type.Object(
        { rating: Type.Integer({ minimum: 1, maximum: 5 }), count: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
      { minItems: 5, maxItems: 5, description: 'Ratings 5 down to 1, zeros included' },
    ),
  },
  { $id: 'ReviewSummary', title: 'ReviewSummary', additionalProperties: false },
);
export type ReviewSummary = Static<typeof ReviewSummarySchema>;

export const ReviewPageSchema = Type.Object(
  {
    reviews: Type.Array(ReviewSchema),
    pagination: PaginationSchema,
    summary: ReviewSummarySchema,
  },
  { $id: 'ReviewPage', title: 'ReviewPage', additionalProperties: false },
);
export type ReviewPage = Static<typeof ReviewPageSchema>;

export const ReviewListResponseSchema = DataEnvelope(ReviewPageSchema, false, {
  $id: 'ReviewListResponse',
});
export type ReviewListResponse = Static<typeof ReviewListResponseSchema>;

export const CreateReviewBodySchema = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    title: Type.String({
      minLength: 3,
      maxLength: 100,
      ...notBlank,
      description:
        '3–100 characters; surrounding whitespace is removed before the check and not stored',
    }),
    comment: Type.String({
      minLength: 10,
      maxLength: 1000,
      ...notBlank,
      description:
        '10–1000 characters; surrounding whitespace is removed before the check and not stored',
    }),
  },
  { $id: 'CreateReviewBody', title: 'CreateReviewBody', additionalProperties: false },
);
export type CreateReviewBody = Static<typeof CreateReviewBodySchema>;

export const CreateReviewResponseSchema = DataEnvelope(
  Type.Object({ review_id: Id() }, { additionalProperties: false }),
  true,
  { $id: 'CreateReviewResponse' },
);

export const reviewExample: Review = {
  id: 31,
  product_id: 12,
  customer_id: 7,
  rating: 5,
  title: 'Tough and light',
  comment: 'Used it on three long tracks in wet forest; no tangles and easy to clean.',
  first_name: 'Jana',
  last_name: 'Johannsen',
  helpful_count: 2,
  created_at: '2026-03-14T09:21:05.000Z',
};

const reviewSummaryExample: ReviewSummary = {
  average_rating: 4.5,
  total_reviews: 2,
  rating_distribution: [
    { rating: 5, count: 1 },
    { rating: 4, count: 1 },
    { rating: 3, count: 0 },
    { rating: 2, count: 0 },
    { rating: 1, count: 0 },
  ],
};

const productNotFound = [404, 'Product 999 not found', 'No active product with this id'] as const;

export const listProductReviewsOperation = {
  tags: shopTag('Reviews'),
  operationId: 'listProductReviews',
  summary: 'List reviews of an active product, with a summary',
  description:
    'Paginated; `sort` is `newest` (default), `oldest` or `rating` (rating descending, then newest); `rating` filters to one rating. The summary covers all reviews of the product, not only the filtered page. Reviews hidden by staff are in neither. ' +
    'Private cache: a strong `ETag` and `Cache-Control: private, no-cache`; with `If-None-Match` an unchanged answer is `304` without a body.',
  params: IdParamsSchema,
  querystring: ReviewListQuerySchema,
  response: {
    200: documented(ReviewListResponseSchema, {
      description: 'One page of reviews and the summary of all reviews of the product',
      examples: [
        {
          success: true,
          data: {
            reviews: [reviewExample],
            pagination: { page: 1, limit: 10, total: 2, pages: 1 },
            summary: reviewSummaryExample,
          },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.limit must be <= 50'], 401, [...productNotFound], 429),
  },
};

export const createProductReviewOperation = {
  tags: shopTag('Reviews'),
  operationId: 'createProductReview',
  summary: 'Review an active product as the signed-in customer',
  description:
    'One review per customer and product (409 for a second one). Title 3–100 and comment 10–1000 characters after trimming; the reviewer names come from the customer record.',
  params: IdParamsSchema,
  body: documented(CreateReviewBodySchema, {
    examples: [
      {
        rating: 5,
        title: 'Tough and light',
        comment: 'Used it on three long tracks in wet forest; no tangles and easy to clean.',
      },
    ],
  }),
  response: {
    201: documented(CreateReviewResponseSchema, {
      description: 'The review was created',
      examples: [{ success: true, data: { review_id: 31 }, message: 'Review created' }],
    }),
    ...shopErrors(
      [400, 'body.title must NOT have fewer than 3 characters'],
      [401, 'Invalid or expired token', 'Missing, invalid or expired bearer token'],
      [...productNotFound],
      [
        409,
        'You have already reviewed product 12',
        'The customer has already reviewed this product',
      ],
      413,
      415,
      429,
    ),
  },
};
