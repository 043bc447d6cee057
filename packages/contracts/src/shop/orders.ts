import { Type, type Static } from 'typebox';
import { DataEnvelope } from '../common.js';
import { DateTime, Email, Id, Money, Text } from './shared.js';

export const OrderStatusSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('confirmed'),
    Type.Literal('shipped'),
    Type.Literal('delivered'),
    Type.Literal('cancelled'),
  ],
  { title: 'OrderStatus' },
);
export type OrderStatus = Static<typeof OrderStatusSchema>;

export const OrderItemInputSchema = Type.Object(
  {
    product_id: Id(),
    product_name: Text(300),
    quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
    price: Money('Must equal the current catalogue price, else 409'),
  },
  { additionalProperties: false },
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
  { additionalProperties: false },
);
export type CreateOrderBody = Static<typeof CreateOrderBodySchema>;

export const CreateOrderResponseSchema = DataEnvelope(
  Type.Object({ order_id: Id(), total_amount: Money() }, { additionalProperties: false }),
  true,
);
export type CreateOrderResponse = Static<typeof CreateOrderResponseSchema>;

export const OrderItemSchema = Type.Object(
  {
    product_id: Id(),
    product_name: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    price: Money(),
    total_price: Money(),
  },
  { title: 'OrderItem', additionalProperties: false },
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
  { title: 'OrderDetail', additionalProperties: false },
);
export type OrderDetail = Static<typeof OrderDetailSchema>;

export const OrderDetailResponseSchema = DataEnvelope(OrderDetailSchema);

export const UpdateOrderStatusBodySchema = Type.Object(
  { status: OrderStatusSchema },
  { additionalProperties: false },
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
