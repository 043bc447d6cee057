import { documented } from '@dogshop/contracts/common';
import {
  CreateReviewBodySchema,
  CreateReviewResponseSchema,
  IdParamsSchema,
  ReviewListQuerySchema,
  ReviewListResponseSchema,
  reviewExample,
  reviewSummaryExample,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { createReview, listReviews } from '../../services/reviews.js';
import { bearerSecurity, errorResponses } from '../responses.js';

/** Needs `X-API-Key` (registered in the API-key scope). */
export const reviewListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/:id/reviews',
    {
      schema: {
        tags: ['Reviews'],
        operationId: 'listProductReviews',
        summary: 'List reviews of an active product, with a summary',
        description:
          'Paginated; `sort` is `newest` (default), `oldest` or `rating` (rating descending, then newest); `rating` filters to one rating. The summary covers all reviews of the product, not only the filtered page.',
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
          ...errorResponses(
            [400, 'querystring.limit must be <= 50'],
            401,
            [404, 'Product 999 not found', 'No active product with this id'],
            429,
          ),
        },
      },
    },
    async (request) => listReviews(app.db, request.params.id, request.query),
  );
};

const TRIMMED_FIELDS = ['title', 'comment'] as const;

/**
 * Title and comment bounds apply after trimming, so they are trimmed before validation: the
 * schema's lengths are then the real rule, its 400 names the field, and the trimmed text is stored.
 */
async function trimReviewText(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  for (const field of TRIMMED_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') record[field] = value.trim();
  }
}

/** Needs a customer's bearer token (bearer scope); that customer is the reviewer. */
export const reviewWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/products/:id/reviews',
    {
      preValidation: trimReviewText,
      schema: {
        tags: ['Reviews'],
        operationId: 'createProductReview',
        summary: 'Review an active product as the signed-in customer',
        description:
          'One review per customer and product (409 for a second one). Title 3–100 and comment 10–1000 characters after trimming; the reviewer names come from the customer record.',
        security: bearerSecurity,
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
          ...errorResponses(
            [400, 'body.title must NOT have fewer than 3 characters'],
            [401, 'Invalid or expired token', 'Missing, invalid or expired bearer token'],
            [404, 'Product 999 not found', 'No active product with this id'],
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
      },
    },
    async (request, reply) => {
      const data = await createReview(app.db, request.params.id, request.customerId, request.body);
      return reply.code(201).send({ success: true as const, data, message: 'Review created' });
    },
  );
};
