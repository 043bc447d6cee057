import { listAuditEntriesOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAuditEntries } from '../../modules/audit/service.js';

/**
 * The audit: `audit:read`, which only the admin role grants (modules/access/policy.ts) and a
 * secret key carries only when given it.
 */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admin/audit',
    {
      schema: listAuditEntriesOperation,
      config: { auth: 'scoped', scope: 'audit:read', personal: true },
    },
    async (request) => {
      const page = await listAuditEntries(app.db, request.query);
      return {
        success: true as const,
        data: page.entries,
        pagination: { limit: request.query.limit, next_cursor: page.nextCursor },
      };
    },
  );
};
