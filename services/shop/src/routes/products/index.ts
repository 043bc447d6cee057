import { documented } from '@dogshop/contracts/common';
import {
  IdParamsSchema,
  ProductDetailResponseSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
  paginationExample,
  productDetailExample,
  productExample,
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
        response: {
          200: documented(ProductListResponseSchema, {
            description: 'One page of active products',
            examples: [{ success: true, data: [productExample], pagination: paginationExample }],
          }),
          ...errorResponses(
            [400, 'querystring.min_price must be less than or equal to max_price'],
            401,
            429,
          ),
        },
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
        description:
          'An active product with its 10 newest reviews; the reviews endpoint pages through all of them. An inactive or unknown product is 404.',
        params: IdParamsSchema,
        response: {
          200: documented(ProductDetailResponseSchema, {
            description: 'The product',
            examples: [{ success: true, data: productDetailExample }],
          }),
          ...errorResponses(
            [400, 'params.id must be >= 1'],
            401,
            [404, 'Product 999 not found', 'No active product with this id'],
            429,
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getProduct(app.db, request.params.id),
    }),
  );
};
