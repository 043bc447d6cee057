import { SuccessMessageSchema, documented } from '@dogshop/contracts/common';
import {
  CreateOrderBodySchema,
  CreateOrderResponseSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  OrderDetailResponseSchema,
  UpdateOrderStatusBodySchema,
  orderDetailExample,
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
        body: documented(CreateOrderBodySchema, {
          examples: [
            {
              customer_name: 'Jana Johannsen',
              customer_email: 'jana.johannsen@example.com',
              customer_phone: '+49 4131 123456',
              items: [
                {
                  product_id: 12,
                  product_name: 'Tracking lead 10 m',
                  quantity: 2,
                  price: 39.9,
                },
              ],
            },
          ],
        }),
        response: {
          201: documented(CreateOrderResponseSchema, {
            description:
              'The order was placed (or, with `Idempotent-Replayed: true`, an earlier answer replayed)',
            examples: [
              {
                success: true,
                data: { order_id: 1001, total_amount: 79.8 },
                message: 'Order 1001 created',
              },
            ],
          }),
          ...errorResponses(
            [
              400,
              'product 12 (Tracking lead 10 m) is not available',
              'Invalid request, or a product that does not exist or is not active (named in the message)',
            ],
            401,
            [
              409,
              'insufficient stock for product 12 (Tracking lead 10 m): 1 available, 2 requested',
              'A price differs from the catalogue (the message gives the current price), the stock is insufficient, or a request with the same Idempotency-Key is still running',
            ],
            413,
            415,
            [
              422,
              'Idempotency-Key was already used with a different request body',
              'The Idempotency-Key was already used with a different body',
            ],
            429,
          ),
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
        response: {
          200: documented(OrderDetailResponseSchema, {
            description: 'The order with its items',
            examples: [{ success: true, data: orderDetailExample }],
          }),
          ...errorResponses(
            [400, 'params.id must be >= 1'],
            401,
            [404, 'Order 999 not found', 'No order with this id'],
            429,
          ),
        },
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
        body: documented(UpdateOrderStatusBodySchema, { examples: [{ status: 'confirmed' }] }),
        response: {
          200: documented(SuccessMessageSchema, {
            description: 'The status was changed, or already had this value',
            examples: [
              { success: true, message: 'Order 1001 status changed from pending to confirmed' },
            ],
          }),
          ...errorResponses(
            [400, 'body.status must be equal to one of the allowed values'],
            401,
            [404, 'Order 999 not found', 'No order with this id'],
            [
              409,
              'cannot change order 1001 from delivered to pending (delivered allows: no change)',
              'This status change is not allowed from the current status',
            ],
            413,
            415,
            429,
          ),
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: await setOrderStatus(app.db, request.params.id, request.body.status),
    }),
  );
};
