import { Type, type Static } from 'typebox';
import { DataEnvelope, PaginationSchema } from '../common.js';
import { DateTime, Id, pageQuery } from './shared.js';

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
  { title: 'Review', additionalProperties: false },
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
  { title: 'ReviewSummary', additionalProperties: false },
);
export type ReviewSummary = Static<typeof ReviewSummarySchema>;

export const ReviewListResponseSchema = DataEnvelope(
  Type.Object(
    {
      reviews: Type.Array(ReviewSchema),
      pagination: PaginationSchema,
      summary: ReviewSummarySchema,
    },
    { additionalProperties: false },
  ),
);
export type ReviewListResponse = Static<typeof ReviewListResponseSchema>;

export const CreateReviewBodySchema = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    title: Type.String({
      minLength: 3,
      maxLength: 100,
      description:
        '3–100 characters; surrounding whitespace is removed before the check and not stored',
    }),
    comment: Type.String({
      minLength: 10,
      maxLength: 1000,
      description:
        '10–1000 characters; surrounding whitespace is removed before the check and not stored',
    }),
  },
  { additionalProperties: false },
);
export type CreateReviewBody = Static<typeof CreateReviewBodySchema>;

export const CreateReviewResponseSchema = DataEnvelope(
  Type.Object({ review_id: Id() }, { additionalProperties: false }),
  true,
);
