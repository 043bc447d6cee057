import {
  adjustStockOperation,
  createProductOperation,
  exportAdminProductsOperation,
  getAdminProductOperation,
  listAdminProductsOperation,
  listStockMovementsOperation,
  updateProductOperation,
} from '@dogshop/contracts/shop';
import { named } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { exportProductsCsv } from '../../modules/product-admin/export-csv.js';
import {
  createProduct,
  filterOf,
  getAdminProduct,
  listAdminProducts,
  updateProduct,
} from '../../modules/product-admin/service.js';
import { adjustStock, listStockMovements } from '../../modules/stock/service.js';
import { actorOf } from '../../plugins/auth.js';
import { productImportRoutes } from './product-import.js';

/** The back office's catalogue: reads and changes both need `catalogue:write` (or a role granting it). */
export const adminProductRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const catalogue = { auth: 'scoped', scope: 'catalogue:write' } as const;

  app.get(
    '/admin/products',
    { schema: listAdminProductsOperation, config: catalogue },
    async (request) => {
      const page = await listAdminProducts(app.db, request.query);
      return {
        success: true as const,
        data: page.products,
        pagination: { limit: request.query.limit, next_cursor: page.nextCursor, total: page.total },
      };
    },
  );

  app.get(
    '/admin/products/export',
    { schema: exportAdminProductsOperation, config: catalogue },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${day}.csv"`)
        .send(exportProductsCsv(app.db, filterOf(request.query), request.query.delimiter));
    },
  );

  app.get(
    '/admin/products/:id',
    { schema: getAdminProductOperation, config: catalogue },
    async (request) => ({
      success: true as const,
      data: await getAdminProduct(app.db, request.params.id),
    }),
  );

  app.post(
    '/admin/products',
    { schema: createProductOperation, config: catalogue },
    async (request, reply) => {
      reply.code(201);
      return {
        success: true as const,
        data: await createProduct(app.db, actorOf(request), request.body),
      };
    },
  );

  app.patch(
    '/admin/products/:id',
    { schema: updateProductOperation, config: catalogue },
    async (request) => ({
      success: true as const,
      data: await updateProduct(app.db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/products/:id/stock',
    { schema: adjustStockOperation, config: catalogue },
    async (request) => {
      const movement = await adjustStock(app.db, actorOf(request), request.params.id, request.body);
      return {
        success: true as const,
        data: { product: await getAdminProduct(app.db, request.params.id), movement },
      };
    },
  );

  app.get(
    '/admin/products/:id/stock-movements',
    { schema: listStockMovementsOperation, config: catalogue },
    async (request) => {
      const page = await listStockMovements(app.db, request.params.id, request.query);
      return {
        success: true as const,
        data: page.movements,
        pagination: { limit: request.query.limit, next_cursor: page.nextCursor },
      };
    },
  );

  await app.register(named(productImportRoutes));
};
