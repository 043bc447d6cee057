import { getStatsOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { shopStats } from '../../modules/stats/service.js';

export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stats',
    { schema: getStatsOperation, config: { auth: 'scoped', scope: 'stats:read' } },
    async () => ({
      success: true as const,
      data: await shopStats(app.db),
    }),
  );
};
