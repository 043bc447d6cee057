import { documented } from '@dogshop/contracts/common';
import {
  PublicHandlerListQuerySchema,
  PublicHandlerListResponseSchema,
  nearestHandlerExample,
} from '@dogshop/contracts/handler-directory';
import { badRequest } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MESSAGES } from '../../messages.js';
import { listHandlers, listNearestHandlers } from '../../services/handlers.js';
import { errorResponses } from '../responses.js';

export const publicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/public/users',
    {
      schema: {
        tags: ['Public'],
        operationId: 'listAvailableHandlers',
        summary: 'Available handlers, by name or nearest first',
        description:
          'Only handlers with `available: true`, ordered by name. With `lat` and `lng` (both or neither): only those with a GPS position, nearest first by great-circle distance, each with `distance_km`; `radius_km` limits the distance.',
        security: [],
        querystring: PublicHandlerListQuerySchema,
        response: {
          200: documented(PublicHandlerListResponseSchema, {
            description: 'The available handlers (nearest first when lat/lng are given)',
            examples: [{ success: true, data: [nearestHandlerExample] }],
          }),
          ...errorResponses([400, MESSAGES.nearestNeedsBoth], 429),
        },
      },
    },
    async (request) => {
      const { lat, lng, radius_km: radiusKm } = request.query;
      if ((lat === undefined) !== (lng === undefined)) throw badRequest(MESSAGES.nearestNeedsBoth);
      if (lat === undefined || lng === undefined) {
        if (radiusKm !== undefined) throw badRequest(MESSAGES.radiusNeedsPoint);
        return {
          success: true as const,
          data: await listHandlers(app.db, { onlyAvailable: true }),
        };
      }
      return {
        success: true as const,
        data: await listNearestHandlers(app.db, { lat, lng }, radiusKm),
      };
    },
  );
};
