import { Type, type Static } from 'typebox';
import { DataEnvelope, SuccessMessageSchema, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { DateTime, Email, Id, IdParamsSchema, Money, Text } from './shared.js';
import { shopTag } from './tags.js';

export const OrderStatusSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('confirmed'),
    Type.Literal('shipped'),
    Type.Literal('delivered'),
    Type.Literal('cancelled'),
  ],
  { $id: 'OrderStatus', title: 'OrderStatus' },
);
export type OrderStatus = Static<typeof OrderStatusSchema>;

export const OrderItemInputSchema = Type.Object(
  {
    product_id: Id(),
    product_name: Type.String({
      minLength: 1,
      maxLength: 300,
      description: "Informational: the order takes the catalogue's name",
    }),
    quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
    price: Money('Must equal the current catalogue price, else 409'),
  },
  { $id: 'OrderItemInput', title: 'OrderItemInput', additionalProperties: false },
);

export const CreateOrderBodySchema = Type.Object(
  {
    customer_name: Text(200),
    customer_email: Email(),
    customer_phone: Type.Optional(Type.String({ maxLength: 50 })),
    items: Type.Array(OrderItemInputSchema, {
      minItems: 1,
      maxItems: 100,
      description: 'The same product twice is merged into one line',
    }),
  },
  { $id: 'CreateOrderBody', title: 'CreateOrderBody', additionalProperties: false },
);
export type CreateOrderBody = Static<typeof CreateOrderBodySchema>;

export const CreatedOrderSchema = Type.Object(
  {
    order_id: Id(),
    total_amount: Money(),
    access_token: Type.String({
      description:
        'The order’s own token, shown once: sent as `X-Order-Token` it lets a publishable key read this order (a guest’s confirmation page)',
    }),
  },
  { $id: 'CreatedOrder', title: 'CreatedOrder', additionalProperties: false },
);
export type CreatedOrder = Static<typeof CreatedOrderSchema>;

export const CreateOrderResponseSchema = DataEnvelope(CreatedOrderSchema, true, {
  $id: 'OrderCreatedResponse',
});
export type CreateOrderResponse = Static<typeof CreateOrderResponseSchema>;

export const OrderItemSchema = Type.Object(
  {
    product_id: Id(),
    product_name: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    price: Money(),
    total_price: Money(),
  },
  { $id: 'OrderItem', title: 'OrderItem', additionalProperties: false },
);

export const OrderDetailSchema = Type.Object(
  {
    id: Id(),
    customer_name: Type.String(),
    customer_email: Type.String(),
    total_amount: Money(),
    status: OrderStatusSchema,
    created_at: DateTime(),
    items: Type.Array(OrderItemSchema),
  },
  { $id: 'OrderDetail', title: 'OrderDetail', additionalProperties: false },
);
export type OrderDetail = Static<typeof OrderDetailSchema>;

export const OrderDetailResponseSchema = DataEnvelope(OrderDetailSchema, false, {
  $id: 'OrderDetailResponse',
});

export const UpdateOrderStatusBodySchema = Type.Object(
  { status: OrderStatusSchema },
  { $id: 'UpdateOrderStatusBody', title: 'UpdateOrderStatusBody', additionalProperties: false },
);
export type UpdateOrderStatusBody = Static<typeof UpdateOrderStatusBodySchema>;

export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Replays the first response for 24 hours (extension)',
      examples: ['order-2026-03-20-jana-0001'],
    }),
  ),
});

export const orderDetailExample: OrderDetail = {
  id: 1001,
  customer_name: 'Jana Johannsen',
  customer_email: 'jana.johannsen@example.com',
  total_amount: 79.8,
  status: 'pending',
  created_at: '2026-03-20T14:02:11.000Z',
  items: [
    {
      product_id: 12,
      product_name: 'Tracking lead 10 m',
      quantity: 2,
      price: 39.9,
      total_price: 79.8,
    },
  ],
};

const orderNotFound = [404, 'Order 999 not found', 'No order with this id'] as const;

export const createOrderOperation = {
  tags: shopTag('Orders'),
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
    'nothing; with a different body it is 422. A request sent while the first is still running',
    'waits for it and gets its answer, replayed (or, when the first ended without one, is placed',
    'or refused itself).',
    '',
    'With a customer’s token beside the key (BearerAuth), the order is that customer’s',
    '(GET /customers/{id}/orders); a token that is not a valid customer’s is 401.',
    '',
    'Retrying: a request that got no answer (timeout, lost connection, 502/503/504) may or may not',
    'have been placed; sent again with the same `Idempotency-Key` and body it is placed at most',
    'once, on any replica, so it is safe to retry. Without a key a retry may place a second order.',
  ].join('\n'),
  headers: IdempotencyHeadersSchema,
  body: documented(CreateOrderBodySchema, {
    examples: [
      {
        customer_name: 'Jana Johannsen',
        customer_email: 'jana.johannsen@example.com',
        customer_phone: '+49 4131 123456',
        items: [{ product_id: 12, product_name: 'Tracking lead 10 m', quantity: 2, price: 39.9 }],
      },
    ],
  }),
  response: {
    201: documented(CreateOrderResponseSchema, {
      description:
        'The order was placed (or, with `Idempotent-Replayed: true`, an earlier answer replayed)',
      headers: {
        'idempotent-replayed': {
          type: 'string',
          description:
            '`true` when the answer replays the first one for this `Idempotency-Key` (a refusal replayed carries it too)',
        },
      },
      examples: [
        {
          success: true,
          data: {
            order_id: 1001,
            total_amount: 79.8,
            access_token: 'b3JkZXItMTAwMS1hY2Nlc3MtdG9rZW4tZXhhbXBsZQ',
          },
          message: 'Order 1001 created',
        },
      ],
    }),
    ...shopErrors(
      [
        400,
        'product 12 (Tracking lead 10 m) is not available',
        'Invalid request, or a product that does not exist or is not active (named in the message)',
      ],
      401,
      [
        409,
        'insufficient stock for product 12 (Tracking lead 10 m): 1 available, 2 requested',
        'A price differs from the catalogue (the message gives the current price), or the stock is insufficient',
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
};

export const OrderTokenHeadersSchema = Type.Object({
  'x-order-token': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The order’s `access_token` from its create answer',
      examples: ['b3JkZXItMTAwMS1hY2Nlc3MtdG9rZW4tZXhhbXBsZQ'],
    }),
  ),
  authorization: Type.Optional(
    Type.String({
      description: 'The owner’s customer token (`Bearer …`), instead of the order token',
    }),
  ),
});

export const getOrderOperation = {
  tags: shopTag('Orders'),
  operationId: 'getOrder',
  summary: 'Order detail with its items',
  description: [
    'Item `price` is the unit price at order time; `total_price` is price × quantity.',
    '',
    'A secret key with `orders:read` reads any order. Any other key reads an order only with its',
    '`X-Order-Token` (the `access_token` of its create answer) or beside its owner’s customer',
    'token (BearerAuth, for an order placed with that token); without them, or with a wrong one,',
    'the answer is the same 404 as for an order that does not exist.',
  ].join('\n'),
  params: IdParamsSchema,
  headers: OrderTokenHeadersSchema,
  response: {
    200: documented(OrderDetailResponseSchema, {
      description: 'The order with its items',
      examples: [{ success: true, data: orderDetailExample }],
    }),
    ...shopErrors([400, 'params.id must be >= 1'], 401, [...orderNotFound], 429),
  },
};

export const updateOrderStatusOperation = {
  tags: shopTag('Orders'),
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
      examples: [{ success: true, message: 'Order 1001 status changed from pending to confirmed' }],
    }),
    ...shopErrors(
      [400, 'body.status must be equal to one of the allowed values'],
      401,
      [...orderNotFound],
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
};

/** `limit` and `cursor` of a keyset-paged list (the back office's lists and a customer's orders). */
export const cursorQuery = (defaultLimit: number) => ({
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: defaultLimit,
    examples: [defaultLimit],
  }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The `next_cursor` of the page before; absent for the first page',
      examples: ['WyItY3JlYXRlZF9hdCIsIjIwMjYtMTEtMjggMTA6MDA6MDArMDAiLDQyXQ'],
    }),
  ),
});

export const CursorPageSchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1 }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Where the next page starts; null on the last page',
    }),
  },
  { $id: 'CursorPage', title: 'CursorPage', additionalProperties: false },
);

export const CustomerOrdersQuerySchema = Type.Object(cursorQuery(20), {
  additionalProperties: false,
});

export const CustomerOrdersResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(OrderDetailSchema),
    pagination: CursorPageSchema,
  },
  { $id: 'CustomerOrdersResponse', additionalProperties: false },
);

export const listCustomerOrdersOperation = {
  tags: shopTag('Customers'),
  operationId: 'listCustomerOrders',
  summary: 'A customer’s own orders',
  description:
    'The orders placed with this customer’s token, newest first, page by page (`cursor`). Only the customer’s own token opens it (403 for another customer’s path).',
  params: IdParamsSchema,
  querystring: CustomerOrdersQuerySchema,
  response: {
    200: documented(CustomerOrdersResponseSchema, {
      description: 'A page of the customer’s orders',
      examples: [
        { success: true, data: [orderDetailExample], pagination: { limit: 20, next_cursor: null } },
      ],
    }),
    ...shopErrors(
      [400, 'params.id must be >= 1'],
      [403, 'path id 8 is not the customer of the bearer token'],
    ),
  },
};
