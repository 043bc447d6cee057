import { getAdminCustomerOperation, listAdminCustomersOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAdminCustomer, listAdminCustomers } from '../../modules/customer-admin/service.js';

/** The back office's customers: `customers:read` (or a role granting it); personal data, no-store. */
export const adminCustomerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const read = { auth: 'scoped', scope: 'customers:read', personal: true } as const;

  app.get(
    '/admin/customers',
    { schema: listAdminCustomersOperation, config: read },
    async (request) => {
      const page = await listAdminCustomers(app.db, request.query);
      return {
        success: true as const,
        data: page.customers,
        pagination: { limit: request.query.limit, next_cursor: page.nextCursor, total: page.total },
      };
    },
  );

  app.get(
    '/admin/customers/:id',
    { schema: getAdminCustomerOperation, config: read },
    async (request) => ({
      success: true as const,
      data: await getAdminCustomer(app.db, request.params.id),
    }),
  );
};
