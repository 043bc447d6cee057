// The back office's reviews: every review (hidden ones too) newest first, and hiding or showing
// one. A hidden review leaves the public lists and the rating summary.
import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { CursorPageSchema, cursorQuery } from './orders.js';
import { ReviewSchema, reviewExample } from './reviews.js';
import { Id, IdParamsSchema } from './shared.js';
import { shopTag } from './tags.js';

/** A review as the public list shows it (unnamed copies of its fields), its product and its state. */
export const AdminReviewSchema = Type.Object(
  {
    ...ReviewSchema.properties,
    product_name: Type.String({ description: 'The product’s current name' }),
    hidden: Type.Boolean({
      description: 'Hidden by staff: not in the public lists nor in the rating summary',
    }),
  },
  { $id: 'AdminReview', title: 'AdminReview', additionalProperties: false },
);
export type AdminReview = Static<typeof AdminReviewSchema>;

export const AdminReviewListQuerySchema = Type.Object(
  {
    product_id: Type.Optional(Id('Only the reviews of this product', [12])),
    hidden: Type.Optional(
      Type.Boolean({
        description: '`true`: only hidden reviews; `false`: only visible ones; absent: both',
        examples: [true],
      }),
    ),
    ...cursorQuery(50),
  },
  { additionalProperties: false },
);
export type AdminReviewListQuery = Static<typeof AdminReviewListQuerySchema>;

export const AdminReviewListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(AdminReviewSchema),
    pagination: CursorPageSchema,
  },
  { $id: 'AdminReviewListResponse', additionalProperties: false },
);

export const ModerateReviewBodySchema = Type.Object(
  {
    hidden: Type.Boolean({
      description: '`true` hides the review from the public, `false` shows it again',
    }),
  },
  { $id: 'ModerateReviewBody', title: 'ModerateReviewBody', additionalProperties: false },
);
export type ModerateReviewBody = Static<typeof ModerateReviewBodySchema>;

export const AdminReviewResponseSchema = DataEnvelope(AdminReviewSchema, false, {
  $id: 'AdminReviewResponse',
});

const adminReviewExample: AdminReview = {
  ...reviewExample,
  product_name: 'Biothane tracking lead 10 m',
  hidden: false,
};

export const listAdminReviewsOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAdminReviews',
  summary: 'Reviews, hidden ones too',
  description: [
    'Every review of every product (active or not), newest first, page by page (`cursor`);',
    '`product_id` and `hidden` narrow it. Reviewers are shown as the public list shows them.',
    'Reading needs `reviews:moderate` as changing does (there is no read-only review scope); a',
    'viewer reads it, as every list staff may read.',
  ].join('\n'),
  querystring: AdminReviewListQuerySchema,
  response: {
    200: documented(AdminReviewListResponseSchema, {
      description: 'A page of reviews',
      examples: [
        {
          success: true,
          data: [{ ...adminReviewExample, hidden: true }],
          pagination: { limit: 50, next_cursor: null },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.cursor is not a cursor this list gave']),
  },
};

export const moderateReviewOperation = {
  tags: shopTag('Back office'),
  operationId: 'moderateReview',
  summary: 'Hide a review, or show it again',
  description: [
    'A hidden review leaves the public lists (`GET /products/{id}/reviews`, the product’s newest',
    'reviews) and its rating summary (average, count and distribution) at once; it stays its',
    'author’s one review of the product (a second one is still 409). The change is audited with',
    'who made it, before and after; setting the state it already has changes nothing.',
  ].join('\n'),
  params: IdParamsSchema,
  body: documented(ModerateReviewBodySchema, { examples: [{ hidden: true }] }),
  response: {
    200: documented(AdminReviewResponseSchema, {
      description: 'The review as changed',
      examples: [{ success: true, data: { ...adminReviewExample, hidden: true } }],
    }),
    ...shopErrors(
      [400, "body must have required property 'hidden'"],
      [404, 'Review 999 not found', 'No review with this id'],
    ),
  },
};
