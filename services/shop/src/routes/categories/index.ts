import { listCategoriesOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listCategories } from '../../modules/categories/service.js';

export const categoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/categories',
    { schema: listCategoriesOperation, config: { auth: 'apiKey', cache: 'private' } },
    async () => ({ success: true as const, data: await listCategories(app.db) }),
  );
};
