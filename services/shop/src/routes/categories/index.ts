import { documented } from '@dogshop/contracts/common';
import { CategoryListResponseSchema, categoryExamples } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listCategories } from '../../services/categories.js';
import { errorResponses } from '../responses.js';

export const categoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/categories',
    {
      schema: {
        tags: ['Categories'],
        operationId: 'listCategories',
        summary: 'List active categories',
        description: 'Ordered by sort_order, then name.',
        response: {
          200: documented(CategoryListResponseSchema, {
            description: 'The active categories',
            examples: [{ success: true, data: categoryExamples }],
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async () => ({ success: true as const, data: await listCategories(app.db) }),
  );
};
