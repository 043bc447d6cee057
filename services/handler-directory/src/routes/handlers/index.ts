import {
  createHandlerOperation,
  deleteHandlerOperation,
  exportHandlersOperation,
  getHandlerOperation,
  listAvailableHandlersOperation,
  listHandlersOperation,
  setHandlerAvailabilityOperation,
  setHandlerGpsOperation,
  updateHandlerOperation,
} from '@dogshop/contracts/handler-directory';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MESSAGES } from '../../messages.js';
import { HANDLER_BODY_NORMALIZATION } from '../../modules/handlers/fields.js';
import {
  asksForWholeList,
  createHandler,
  deleteHandler,
  exportHandlers,
  getHandler,
  listAllPublicHandlers,
  listHandlers,
  listPublicHandlers,
  setAvailability,
  setGps,
  updateHandler,
} from '../../modules/handlers/service.js';
import { serialiseList } from '../../plugins/handler-changes.js';

/**
 * The handlers (the API calls them users): the public list for everyone; reading and the export
 * (JSON, CSV or XLSX) for every account (admin or viewer), personal answers; changes for the `admin` role only (a
 * viewer gets 403). Auth is checked before the body is read, so an unauthorised caller learns
 * nothing from validation errors.
 */
export const handlerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const read = { auth: 'account', personal: true } as const;
  const write = { auth: 'admin', personal: true } as const;
  // Fields the service owns are dropped (a record sent back unchanged is not refused), and text
  // is trimmed so that the length rules apply to what is stored ("   " is an empty name): both
  // lists come from the field table.
  const handlerBody = HANDLER_BODY_NORMALIZATION;
  const exportsStarted = app.metrics.counter('exports_total', 'Exports started, by format.', [
    'format',
  ]);

  // The whole list (no parameters, most requests) is sent from the serialised copy every replica
  // keeps until a handler changes (app.publicList), with its ETag, which httpCache then uses.
  // Pages and nearest-first lists are built per request.
  app.get(
    '/public/users',
    { schema: listAvailableHandlersOperation, config: { auth: 'none', cache: 'public' } },
    async (request, reply) => {
      if (!asksForWholeList(request.query)) {
        return { success: true as const, ...(await listPublicHandlers(app.db, request.query)) };
      }
      const list = await app.publicList.get(async () =>
        // The route's own serializer: the same bytes as an answer serialised per request.
        serialiseList(
          reply.serialize({ success: true, data: await listAllPublicHandlers(app.db) }),
        ),
      );
      return reply
        .header('etag', list.etag)
        .type('application/json; charset=utf-8')
        .send(list.body as never); // serialised already (the route's schema types the object)
    },
  );

  app.get('/users', { schema: listHandlersOperation, config: read }, async () => ({
    success: true as const,
    data: await listHandlers(app.db),
  }));

  app.get(
    '/users/export',
    { schema: exportHandlersOperation, config: read },
    async (request, reply) => {
      const file = exportHandlers(app.db, request.query, new Date());
      exportsStarted.inc({ format: request.query.format ?? 'json' });
      // A file, not a personal answer: plain `no-store` (replaces routeAuth's private, no-store).
      reply.header('cache-control', 'no-store').type(file.contentType);
      if (file.filename) {
        reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      }
      // A stream bypasses response serialization.
      return reply.send(file.stream);
    },
  );

  app.get('/users/:id', { schema: getHandlerOperation, config: read }, async (request) => ({
    success: true as const,
    data: await getHandler(app.db, request.params.id),
  }));

  app.post(
    '/users',
    { schema: createHandlerOperation, config: { ...write, normalize: handlerBody } },
    async (request, reply) => {
      reply.code(201);
      return {
        success: true as const,
        data: await createHandler(app.db, app.handlersChanged, request.body),
      };
    },
  );

  app.put(
    '/users/:id',
    { schema: updateHandlerOperation, config: { ...write, normalize: handlerBody } },
    async (request) => ({
      success: true as const,
      data: await updateHandler(app.db, app.handlersChanged, request.params.id, request.body),
    }),
  );

  app.delete('/users/:id', { schema: deleteHandlerOperation, config: write }, async (request) => {
    await deleteHandler(app.db, app.handlersChanged, request.params.id);
    return { success: true as const, message: MESSAGES.handlerDeleted };
  });

  app.put(
    '/users/:id/availability',
    { schema: setHandlerAvailabilityOperation, config: write },
    async (request) => ({
      success: true as const,
      data: await setAvailability(
        app.db,
        app.handlersChanged,
        request.params.id,
        request.body.available,
      ),
    }),
  );

  app.put('/users/:id/gps', { schema: setHandlerGpsOperation, config: write }, async (request) => ({
    success: true as const,
    data: await setGps(app.db, app.handlersChanged, request.params.id, request.body),
  }));
};
