import {
  IdParamsSchema,
  ProductDetailResponseSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getProduct, listProducts } from '../../services/products.js';
import { errorResponses } from '../responses.js';

export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    {
      schema: {
        tags: ['Products'],
        operationId: 'listProducts',
        summary: 'List active products',
        description:
          'Paginated, newest first (ties by id). `category` includes descendants; every `search` term must occur in the name or description (case-insensitive); price bounds are inclusive.',
        querystring: ProductListQuerySchema,
        response: { 200: ProductListResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listProducts(app.db, request.query),
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags: ['Products'],
        operationId: 'getProduct',
        summary: 'Product detail with its 10 newest reviews',
        params: IdParamsSchema,
        response: { 200: ProductDetailResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getProduct(app.db, request.params.id),
    }),
  );
};
