import { createProductReviewOperation, listProductReviewsOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createReview, listReviews } from '../../modules/reviews/service.js';
import { signedInAccount } from '../../plugins/auth.js';

/** Anyone with the API key reads reviews; a signed-in customer writes one, as the reviewer. */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/:id/reviews',
    { schema: listProductReviewsOperation, config: { auth: 'apiKey', cache: 'private' } },
    async (request) => ({
      success: true as const,
      data: await listReviews(app.reads, request.params.id, request.query),
    }),
  );

  app.post(
    '/products/:id/reviews',
    {
      schema: createProductReviewOperation,
      // Length bounds apply after trimming, so the schema judges (and the service stores) the
      // trimmed text.
      config: {
        auth: 'customer',
        personal: true,
        normalize: { trim: ['title', 'comment'] },
      },
    },
    async (request, reply) => {
      const { id: customerId } = signedInAccount(request);
      const data = await createReview(app.db, request.params.id, customerId, request.body);
      return reply.code(201).send({ success: true as const, data, message: 'Review created' });
    },
  );
};
