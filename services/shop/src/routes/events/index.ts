import { listEventsOperation } from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listEvents } from '../../modules/events/service.js';

/** The catch-up feed. Events carry orders (names, e-mail addresses): personal answers. */
export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      schema: listEventsOperation,
      config: { auth: 'scoped', scope: 'events:read', personal: true },
    },
    async (request) => ({ success: true as const, data: await listEvents(app.db, request.query) }),
  );
};
