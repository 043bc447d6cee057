import { SuccessMessageSchema } from '@dogshop/contracts/common';
import {
  CreateOrderBodySchema,
  CreateOrderResponseSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  OrderDetailResponseSchema,
  UpdateOrderStatusBodySchema,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { REPLAYED_HEADER, runIdempotent } from '../../services/idempotency.js';
import {
  ORDER_TRANSACTION,
  createOrder,
  getOrder,
  placeOrder,
  setOrderStatus,
} from '../../services/orders.js';
import { errorResponses } from '../responses.js';

export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orders',
    {
      schema: {
        tags: ['Orders'],
        operationId: 'createOrder',
        summary: 'Place an order',
        description: [
          'Lines for the same product are merged. Every product must exist and be active (400).',
          'Each `price` must equal the current catalogue price to the cent, else 409 giving that price;',
          'names and prices in the order come from the catalogue. Stock is reserved atomically (409 when',
          'insufficient). The order starts `pending`.',
          '',
          '`Idempotency-Key` (extension): the same key with the same body within 24 hours replays the',
          'first response (also a 4xx refusal) with header `Idempotent-Replayed: true` and creates',
          'nothing; with a different body it is 422; while the first request is still running, 409.',
        ].join('\n'),
        headers: IdempotencyHeadersSchema,
        body: CreateOrderBodySchema,
        response: {
          201: CreateOrderResponseSchema,
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      if (key === undefined) {
        return reply.code(201).send(await createOrder(app.db, request.body));
      }
      const outcome = await runIdempotent(
        app.db,
        key,
        request.body,
        (tx) => placeOrder(tx, request.body),
        { statusCode: 201, transaction: ORDER_TRANSACTION },
      );
      if (outcome.replayed) reply.header(REPLAYED_HEADER, 'true');
      return reply.code(201).send(outcome.body);
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags: ['Orders'],
        operationId: 'getOrder',
        summary: 'Order detail with its items',
        description:
          'Item `price` is the unit price at order time; `total_price` is price × quantity.',
        params: IdParamsSchema,
        response: { 200: OrderDetailResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getOrder(app.db, request.params.id),
    }),
  );

  app.put(
    '/orders/:id',
    {
      schema: {
        tags: ['Orders'],
        operationId: 'updateOrderStatus',
        summary: "Change an order's status",
        description: [
          'pending → confirmed | cancelled; confirmed → shipped | cancelled; shipped → delivered;',
          'delivered and cancelled are final. The current status again is a 200 no-op; any other',
          'change is 409. Cancelling returns the stock. Every change is recorded in the history.',
        ].join('\n'),
        params: IdParamsSchema,
        body: UpdateOrderStatusBodySchema,
        response: {
          200: SuccessMessageSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: await setOrderStatus(app.db, request.params.id, request.body.status),
    }),
  );
};
