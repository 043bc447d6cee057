import { documented } from '@dogshop/contracts/common';
import {
  AvailabilityBodySchema,
  CreateHandlerBodySchema,
  DeleteHandlerResponseSchema,
  GpsBodySchema,
  HandlerIdParamsSchema,
  HandlerListResponseSchema,
  HandlerResponseSchema,
  UpdateHandlerBodySchema,
  handlerExample,
  otherHandlerExample,
} from '@dogshop/contracts/handler-directory';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MESSAGES } from '../../messages.js';
import {
  createHandler,
  deleteHandler,
  getHandler,
  listHandlers,
  setAvailability,
  setGps,
  updateHandler,
} from '../../services/handlers.js';
import { bearerSecurity, errorResponses, type ErrorResponseSpec } from '../responses.js';
import { prepareHandlerBody } from './prepare-handler-body.js';

const handlerResponse = (description: string, data = handlerExample) =>
  documented(HandlerResponseSchema, { description, examples: [{ success: true, data }] });
const { address: _address, ...handlerWithoutAddress } = handlerExample;
const notFound: ErrorResponseSpec = [
  404,
  MESSAGES.handlerNotFound,
  'No handler with this id (also for an id that is not an ObjectId)',
];

/** Reading: every logged-in account (admin or viewer). */
export const userReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'listHandlers',
        summary: 'All handlers, available or not, by name',
        description:
          'Every handler, ordered by name (German collation: case-insensitive, umlauts with their base letter). Admin or viewer.',
        security: bearerSecurity,
        response: {
          200: documented(HandlerListResponseSchema, {
            description: 'All handlers',
            examples: [{ success: true, data: [handlerExample, otherHandlerExample] }],
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async () => ({
      success: true as const,
      data: await listHandlers(app.db, { onlyAvailable: false }),
    }),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'getHandler',
        summary: 'One handler',
        description: 'The handler with this `_id`, available or not. Admin or viewer.',
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        response: {
          200: handlerResponse('The handler'),
          ...errorResponses(401, notFound, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getHandler(app.db, request.params.id),
    }),
  );
};

/** Changing the directory: the `admin` role only (a viewer gets 403). */
export const userWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'createHandler',
        summary: 'Create a handler',
        description:
          '`name` and `phone` are required; `available` defaults to true. Unknown fields are 400; read-only fields (`_id`, `createdAt`, `updatedAt`, `__v`) are ignored.',
        security: bearerSecurity,
        body: documented(CreateHandlerBodySchema, {
          examples: [
            {
              name: 'Anna Bergmann',
              address: 'Am Forsthaus 5, 29614 Soltau',
              phone: '+49 5191 987654',
              type: 'SW',
              available: true,
              gps: { lat: 52.9866, lng: 9.8429 },
            },
          ],
        }),
        response: {
          201: handlerResponse('The handler was created'),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
      preValidation: prepareHandlerBody,
    },
    async (request, reply) => {
      reply.code(201);
      return { success: true as const, data: await createHandler(app.db, request.body) };
    },
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'updateHandler',
        summary: 'Change some fields of a handler',
        description:
          'Only the fields given change; `null` removes `address`, `type` or `gps`. Read-only fields are ignored.',
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        body: documented(UpdateHandlerBodySchema, {
          examples: [{ phone: '+49 5191 123123', address: null }],
        }),
        response: {
          200: handlerResponse('The changed handler', {
            ...handlerWithoutAddress,
            phone: '+49 5191 123123',
            updatedAt: '2026-03-21T08:00:00.000Z',
          }),
          ...errorResponses(400, 401, 403, notFound, 413, 415, 429),
        },
      },
      preValidation: prepareHandlerBody,
    },
    async (request) => ({
      success: true as const,
      data: await updateHandler(app.db, request.params.id, request.body),
    }),
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'deleteHandler',
        summary: 'Delete a handler',
        description: 'Removes the handler for good. Admin only.',
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        response: {
          200: documented(DeleteHandlerResponseSchema, {
            description: 'The handler was deleted',
            examples: [{ success: true, message: MESSAGES.handlerDeleted }],
          }),
          ...errorResponses(401, 403, notFound, 429),
        },
      },
    },
    async (request) => {
      await deleteHandler(app.db, request.params.id);
      return { success: true as const, message: MESSAGES.handlerDeleted };
    },
  );

  app.put(
    '/users/:id/availability',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'setHandlerAvailability',
        summary: 'Set availability (moves the handler in or out of the public list)',
        description:
          '`available: false` takes the handler out of the public list, `true` puts it back. Admin only.',
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        body: documented(AvailabilityBodySchema, { examples: [{ available: false }] }),
        response: {
          200: handlerResponse('The changed handler', { ...handlerExample, available: false }),
          ...errorResponses(400, 401, 403, notFound, 415, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await setAvailability(app.db, request.params.id, request.body.available),
    }),
  );

  app.put(
    '/users/:id/gps',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'setHandlerGps',
        summary: 'Set the GPS position',
        description:
          'Both `lat` (−90..90) and `lng` (−180..180) are required; the position is used by the nearest search of the public list. Admin only.',
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        body: documented(GpsBodySchema, { examples: [{ lat: 53.0793, lng: 8.8017 }] }),
        response: {
          200: handlerResponse('The changed handler', {
            ...handlerExample,
            gps: { lat: 53.0793, lng: 8.8017 },
          }),
          ...errorResponses(
            [400, `${MESSAGES.invalidRequest}body.lat must be <= 90`],
            401,
            403,
            notFound,
            415,
            429,
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await setGps(app.db, request.params.id, request.body),
    }),
  );
};
