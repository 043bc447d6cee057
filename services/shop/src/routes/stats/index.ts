import { documented } from '@dogshop/contracts/common';
import { StatsResponseSchema } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { shopStats } from '../../services/stats.js';
import { errorResponses } from '../responses.js';

export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stats',
    {
      schema: {
        tags: ['Statistics'],
        operationId: 'getStats',
        summary: 'Overall counts',
        description:
          '`products` and `categories` count active ones; `orders` and `customers` count all.',
        response: {
          200: documented(StatsResponseSchema, {
            description: 'The counts',
            examples: [
              {
                success: true,
                data: { products: 128, categories: 14, orders: 5230, customers: 912 },
              },
            ],
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async () => ({ success: true as const, data: await shopStats(app.db) }),
  );
};
