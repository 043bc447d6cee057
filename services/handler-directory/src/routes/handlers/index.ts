import {
  createHandlerOperation,
  deleteHandlerOperation,
  exportHandlersOperation,
  getHandlerHistoryOperation,
  getHandlerOperation,
  listAvailableHandlersOperation,
  listHandlersOperation,
  setHandlerAvailabilityOperation,
  setHandlerGpsOperation,
  updateHandlerOperation,
} from '@dogshop/contracts/handler-directory';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../messages.js';
import { HANDLER_BODY_NORMALIZATION } from '../../modules/handlers/fields.js';
import { handlerHistory } from '../../modules/handlers/history.js';
import {
  asksForWholeList,
  createHandler,
  deleteHandler,
  exportHandlers,
  getHandler,
  listAllPublicHandlers,
  listHandlers,
  listPublicHandlers,
  listValidUntil,
  setAvailability,
  setGps,
  updateHandler,
  type HandlerWriter,
} from '../../modules/handlers/service.js';
import { serialiseList } from '../../plugins/handler-changes.js';

/**
 * The handlers (the API calls them users): the public list for everyone; the admin list, the
 * history and the export (JSON, CSV or XLSX) for `admin` and `viewer`; changes for `admin`; one
 * handler's record, availability and position also for the `handler` account bound to it (see
 * plugins/auth.ts). Answers to accounts are personal. Auth is checked before the body is read, so
 * an unauthorised caller learns nothing from validation errors.
 */
export const handlerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const staff = { auth: 'staff', personal: true } as const;
  const write = { auth: 'admin', personal: true } as const;
  const ownRead = { auth: 'ownHandlerRead', personal: true } as const;
  const ownWrite = { auth: 'ownHandlerWrite', personal: true } as const;
  /** The request's writer: its account is the history's actor. */
  const writer = (request: FastifyRequest): HandlerWriter => {
    const { id, username, role } = request.account!;
    return { db: app.db, changed: app.handlersChanged, actor: { id, username, role } };
  };
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
      const list = await app.publicList.get(async () => {
        const data = await listAllPublicHandlers(app.db);
        // The route's own serializer: the same bytes as an answer serialised per request.
        return serialiseList(reply.serialize({ success: true, data }), listValidUntil(data));
      });
      return reply
        .header('etag', list.etag)
        .type('application/json; charset=utf-8')
        .send(list.body as never); // serialised already (the route's schema types the object)
    },
  );

  app.get('/users', { schema: listHandlersOperation, config: staff }, async (request) => ({
    success: true as const,
    ...(await listHandlers(app.db, request.query)),
  }));

  app.get(
    '/users/export',
    { schema: exportHandlersOperation, config: staff },
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

  app.get('/users/:id', { schema: getHandlerOperation, config: ownRead }, async (request) => ({
    success: true as const,
    data: await getHandler(app.db, request.params.id),
  }));

  app.get(
    '/users/:id/history',
    { schema: getHandlerHistoryOperation, config: staff },
    async (request) => ({
      success: true as const,
      ...(await handlerHistory(app.db, request.params.id, request.query)),
    }),
  );

  app.post(
    '/users',
    { schema: createHandlerOperation, config: { ...write, normalize: handlerBody } },
    async (request, reply) => {
      reply.code(201);
      return {
        success: true as const,
        data: await createHandler(writer(request), request.body),
      };
    },
  );

  app.put(
    '/users/:id',
    { schema: updateHandlerOperation, config: { ...write, normalize: handlerBody } },
    async (request) => ({
      success: true as const,
      data: await updateHandler(writer(request), request.params.id, request.body),
    }),
  );

  app.delete('/users/:id', { schema: deleteHandlerOperation, config: write }, async (request) => {
    await deleteHandler(writer(request), request.params.id);
    return { success: true as const, message: MESSAGES.handlerDeleted };
  });

  app.put(
    '/users/:id/availability',
    { schema: setHandlerAvailabilityOperation, config: ownWrite },
    async (request) => ({
      success: true as const,
      data: await setAvailability(writer(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/users/:id/gps',
    { schema: setHandlerGpsOperation, config: ownWrite },
    async (request) => ({
      success: true as const,
      data: await setGps(writer(request), request.params.id, request.body),
    }),
  );
};
