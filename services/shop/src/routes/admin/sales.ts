import { getSalesFiguresOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { salesFigures } from '../../modules/sales/service.js';

/** The back office's sales figures (`stats:read`), per day in the shop's time zone. */
export const adminSalesRoutes: FastifyPluginAsyncTypebox<{ timeZone: string }> = async (
  app,
  { timeZone },
) => {
  app.get(
    '/admin/stats/sales',
    {
      schema: getSalesFiguresOperation,
      config: { auth: 'scoped', scope: 'stats:read', personal: true },
    },
    async (request) => ({
      success: true as const,
      data: await salesFigures(app.db, timeZone, request.query),
    }),
  );
};
