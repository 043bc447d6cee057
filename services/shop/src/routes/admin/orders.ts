import {
  addOrderNoteOperation,
  changeAdminOrderStatusOperation,
  exportAdminOrdersOperation,
  getAdminOrderOperation,
  listAdminOrdersOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { exportOrdersCsv } from '../../modules/order-admin/export-csv.js';
import {
  addOrderNote,
  changeAdminOrderStatus,
  filterOf,
  getAdminOrder,
  listAdminOrders,
} from '../../modules/order-admin/service.js';
import { actorOf } from '../../plugins/auth.js';

/** The back office's orders: reads need `orders:read`, changes `orders:write` (or a role granting them). */
export const adminOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const read = { auth: 'scoped', scope: 'orders:read', personal: true } as const;
  const write = { auth: 'scoped', scope: 'orders:write', personal: true } as const;

  app.get('/admin/orders', { schema: listAdminOrdersOperation, config: read }, async (request) => {
    const page = await listAdminOrders(app.db, request.query);
    return {
      success: true as const,
      data: page.orders,
      pagination: { limit: request.query.limit, next_cursor: page.nextCursor, total: page.total },
    };
  });

  app.get(
    '/admin/orders/export',
    { schema: exportAdminOrdersOperation, config: read },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${day}.csv"`)
        .send(exportOrdersCsv(app.db, filterOf(request.query), request.query.delimiter));
    },
  );

  app.get(
    '/admin/orders/:id',
    { schema: getAdminOrderOperation, config: read },
    async (request) => ({
      success: true as const,
      data: await getAdminOrder(app.db, request.params.id),
    }),
  );

  app.post(
    '/admin/orders/:id/status',
    { schema: changeAdminOrderStatusOperation, config: write },
    async (request) => ({
      success: true as const,
      data: await changeAdminOrderStatus(app.db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/admin/orders/:id/notes',
    { schema: addOrderNoteOperation, config: write },
    async (request, reply) => {
      reply.code(201);
      return {
        success: true as const,
        data: await addOrderNote(app.db, actorOf(request), request.params.id, request.body.text),
      };
    },
  );
};
