import { listAdminReviewsOperation, moderateReviewOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAdminReviews, moderateReview } from '../../modules/review-admin/service.js';
import { actorOf } from '../../plugins/auth.js';

/**
 * The back office's reviews: reading and changing both need `reviews:moderate` (there is no
 * read-only review scope); as with every scope, a viewer's role opens the read (GET) only.
 */
export const adminReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = { auth: 'scoped', scope: 'reviews:moderate', personal: true } as const;

  app.get('/admin/reviews', { schema: listAdminReviewsOperation, config }, async (request) => {
    const page = await listAdminReviews(app.db, request.query);
    return {
      success: true as const,
      data: page.reviews,
      pagination: { limit: request.query.limit, next_cursor: page.nextCursor },
    };
  });

  app.patch('/admin/reviews/:id', { schema: moderateReviewOperation, config }, async (request) => ({
    success: true as const,
    data: await moderateReview(app.db, actorOf(request), request.params.id, request.body.hidden),
  }));
};
