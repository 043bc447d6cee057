import {
  createCategoryOperation,
  listAdminCategoriesOperation,
  updateCategoryOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createCategory,
  listAdminCategories,
  updateCategory,
} from '../../modules/categories/service.js';
import { actorOf } from '../../plugins/auth.js';

/** The back office's category tree: needs `catalogue:write` (or a role granting it). */
export const adminCategoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const catalogue = { auth: 'scoped', scope: 'catalogue:write' } as const;

  app.get(
    '/admin/categories',
    { schema: listAdminCategoriesOperation, config: catalogue },
    async () => ({ success: true as const, data: await listAdminCategories(app.db) }),
  );

  app.post(
    '/admin/categories',
    { schema: createCategoryOperation, config: catalogue },
    async (request, reply) => {
      reply.code(201);
      return {
        success: true as const,
        data: await createCategory(app.db, actorOf(request), request.body),
      };
    },
  );

  app.patch(
    '/admin/categories/:id',
    { schema: updateCategoryOperation, config: catalogue },
    async (request) => ({
      success: true as const,
      data: await updateCategory(app.db, actorOf(request), request.params.id, request.body),
    }),
  );
};
