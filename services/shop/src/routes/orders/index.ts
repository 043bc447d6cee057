import {
  createOrderOperation,
  getOrderOperation,
  updateOrderStatusOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { REPLAYED_HEADER } from '../../modules/idempotency/service.js';
import { createdOrderAnswer } from '../../modules/orders/mapper.js';
import { OrderRefused } from '../../modules/orders/refusals.js';
import { createOrder, getOrderFor, setOrderStatus } from '../../modules/orders/service.js';
import { actorOf, optionalCustomer } from '../../plugins/auth.js';

/** Orders carry a customer's name and address: every answer is personal. */
export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Counted here, where an order's outcome is known; an Idempotency-Key replay counts neither.
  const placed = app.metrics.counter('orders_placed_total', 'Orders placed.');
  const refused = app.metrics.counter(
    'orders_refused_total',
    'Orders the catalogue rules refused (stock, price, availability, unknown product, total).',
    ['reason'],
  );

  app.post(
    '/orders',
    {
      schema: createOrderOperation,
      config: {
        auth: 'apiKeyOptionalCustomer',
        personal: true,
        normalize: { email: ['customer_email'] },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      // Placed with a customer's token beside the key: the order is that customer's.
      const customer = optionalCustomer(request);
      const { order, replayed } = await createOrder(
        app.db,
        request.body,
        key,
        customer?.id ?? null,
      ).catch((error: unknown) => {
        if (error instanceof OrderRefused) refused.inc({ reason: error.reason });
        throw error;
      });
      if (replayed) reply.header(REPLAYED_HEADER, 'true');
      else placed.inc();
      return reply.code(201).send(createdOrderAnswer(order));
    },
  );

  app.get(
    '/orders/:id',
    { schema: getOrderOperation, config: { auth: 'apiKeyOptionalCustomer', personal: true } },
    async (request) => {
      const key = request.apiKey!;
      const customer = optionalCustomer(request);
      return {
        success: true as const,
        data: await getOrderFor(app.db, request.params.id, {
          readsAny: key.kind === 'secret' && key.scopes.includes('orders:read'),
          customerId: customer?.id ?? null,
          orderToken: request.headers['x-order-token'],
        }),
      };
    },
  );

  app.put(
    '/orders/:id',
    {
      schema: updateOrderStatusOperation,
      config: { auth: 'scoped', scope: 'orders:write', personal: true },
    },
    async (request) => ({
      success: true as const,
      message: await setOrderStatus(app.db, request.params.id, request.body.status, {
        actor: actorOf(request),
      }),
    }),
  );
};
