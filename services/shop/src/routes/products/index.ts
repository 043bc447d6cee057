import { getProductOperation, listProductsOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getProduct, listProducts } from '../../modules/products/service.js';

export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    { schema: listProductsOperation, config: { auth: 'apiKey', cache: 'private' } },
    async (request) => {
      const { products, pagination } = await listProducts(app.reads, request.query);
      return { success: true as const, data: products, pagination };
    },
  );

  app.get(
    '/products/:id',
    { schema: getProductOperation, config: { auth: 'apiKey', cache: 'private' } },
    async (request) => ({
      success: true as const,
      data: await getProduct(app.reads, request.params.id),
    }),
  );
};
