import {
  AvailabilityBodySchema,
  CreateHandlerBodySchema,
  DeleteHandlerResponseSchema,
  GpsBodySchema,
  HandlerIdParamsSchema,
  HandlerListResponseSchema,
  HandlerResponseSchema,
  UpdateHandlerBodySchema,
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
import { bearerSecurity, errorResponses } from '../responses.js';
import { prepareHandlerBody } from './prepare-handler-body.js';

/** Reading: every logged-in account (admin or viewer). */
export const userReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['Handlers'],
        operationId: 'listHandlers',
        summary: 'All handlers, available or not, by name',
        security: bearerSecurity,
        response: { 200: HandlerListResponseSchema, ...errorResponses(401, 429) },
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
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        response: { 200: HandlerResponseSchema, ...errorResponses(401, 404, 429) },
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
        body: CreateHandlerBodySchema,
        response: { 201: HandlerResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
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
        body: UpdateHandlerBodySchema,
        response: {
          200: HandlerResponseSchema,
          ...errorResponses(400, 401, 403, 404, 413, 415, 429),
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
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        response: { 200: DeleteHandlerResponseSchema, ...errorResponses(401, 403, 404, 429) },
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
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        body: AvailabilityBodySchema,
        response: { 200: HandlerResponseSchema, ...errorResponses(400, 401, 403, 404, 415, 429) },
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
        security: bearerSecurity,
        params: HandlerIdParamsSchema,
        body: GpsBodySchema,
        response: { 200: HandlerResponseSchema, ...errorResponses(400, 401, 403, 404, 415, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await setGps(app.db, request.params.id, request.body),
    }),
  );
};
