import { ActorSchema } from './access.js';
import { Type, type Static, type TSchema } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { OrderDetailSchema, OrderStatusSchema, orderDetailExample } from './orders.js';
import { ProductSchema } from './products.js';
import { ReviewSchema } from './reviews.js';
import { DateTime, Id } from './shared.js';
import { shopTag } from './tags.js';

/** The events a subscription can name, and the feed lists (`webhook.ping` only goes to one). */
export const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'review.created',
  'product.out_of_stock',
  'product.back_in_stock',
  'product.created',
  'product.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { $id: 'EventType', title: 'EventType' },
);

export const OrderStatusChangeSchema = Type.Object(
  {
    from: OrderStatusSchema,
    to: OrderStatusSchema,
    order: OrderDetailSchema,
    actor: Type.Union([ActorSchema, Type.Null()], {
      description: 'Who changed it (null when no one is known)',
    }),
  },
  { $id: 'OrderStatusChange', title: 'OrderStatusChange', additionalProperties: false },
);
export type OrderStatusChange = Static<typeof OrderStatusChangeSchema>;

/** Who made a change, on the events that name them (left out when no one is known). */
const OptionalActor = () => Type.Optional(ActorSchema);

export const ProductStockChangeSchema = Type.Object(
  {
    product_id: Id(),
    name: Type.String(),
    stock: Type.Integer({ minimum: 0, description: 'The stock after the change' }),
    actor: OptionalActor(),
  },
  { $id: 'ProductStockChange', title: 'ProductStockChange', additionalProperties: false },
);
export type ProductStockChange = Static<typeof ProductStockChangeSchema>;

/** The product fields a `product.updated` event names as changed. */
export const PRODUCT_CHANGE_FIELDS = [
  'price',
  'name',
  'description',
  'category',
  'active',
] as const;
export type ProductChangeField = (typeof PRODUCT_CHANGE_FIELDS)[number];

export const ProductCreatedSchema = Type.Object(
  { ...ProductSchema.properties, actor: OptionalActor() },
  { $id: 'ProductCreated', title: 'ProductCreated', additionalProperties: false },
);
export type ProductCreated = Static<typeof ProductCreatedSchema>;

export const ProductUpdatedSchema = Type.Object(
  {
    ...ProductSchema.properties,
    changes: Type.Array(
      Type.Unsafe<ProductChangeField>({ type: 'string', enum: [...PRODUCT_CHANGE_FIELDS] }),
      { minItems: 1, uniqueItems: true, description: 'The fields the change changed' },
    ),
    actor: OptionalActor(),
  },
  { $id: 'ProductUpdated', title: 'ProductUpdated', additionalProperties: false },
);
export type ProductUpdated = Static<typeof ProductUpdatedSchema>;

/**
 * The data of each event type: the order as GET /orders/{id} shows it, the review, the product
 * (as GET /products/{id} shows it, for product.created and product.updated).
 */
export interface EventData {
  'order.created': Static<typeof OrderDetailSchema>;
  'order.status_changed': OrderStatusChange;
  'review.created': Static<typeof ReviewSchema>;
  'product.out_of_stock': ProductStockChange;
  'product.back_in_stock': ProductStockChange;
  'product.created': ProductCreated;
  'product.updated': ProductUpdated;
}

const eventFields = {
  id: Type.String({
    format: 'uuid',
    description: 'Stable across retries; the `webhook-id` of its deliveries',
  }),
  sequence: Type.Integer({
    minimum: 1,
    description: 'Increases in commit order: the feed lists events by it',
  }),
  timestamp: DateTime(),
};

/**
 * `schema` without the `$id`s in it: a response may carry a named schema only once (Fastify's
 * serializer refuses a second), and the feed's events repeat the order and its status.
 */
const inline = <T extends TSchema>(schema: T): T =>
  JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value)),
  ) as T;

const eventOf = <T extends EventType>(type: T, data: TSchema, $id: string) =>
  Type.Object(
    { ...eventFields, type: Type.Literal(type), data: inline(data) },
    { $id, title: $id, additionalProperties: false },
  );

export const ShopEventSchema = Type.Union(
  [
    eventOf('order.created', OrderDetailSchema, 'OrderCreatedEvent'),
    eventOf('order.status_changed', OrderStatusChangeSchema, 'OrderStatusChangedEvent'),
    eventOf('review.created', ReviewSchema, 'ReviewCreatedEvent'),
    eventOf('product.out_of_stock', ProductStockChangeSchema, 'ProductOutOfStockEvent'),
    eventOf('product.back_in_stock', ProductStockChangeSchema, 'ProductBackInStockEvent'),
    eventOf('product.created', ProductCreatedSchema, 'ProductCreatedEvent'),
    eventOf('product.updated', ProductUpdatedSchema, 'ProductUpdatedEvent'),
  ],
  { $id: 'ShopEvent', title: 'ShopEvent' },
);
export type ShopEvent = {
  [T in EventType]: {
    id: string;
    sequence: number;
    type: T;
    timestamp: string;
    data: EventData[T];
  };
}[EventType];

export const EventFeedQuerySchema = Type.Object(
  {
    after: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'The last `sequence` already read (0: from the oldest event kept)',
      examples: [1041],
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: 500,
      default: 100,
      description: 'Events per answer',
      examples: [100],
    }),
  },
  { additionalProperties: false },
);
export type EventFeedQuery = Static<typeof EventFeedQuerySchema>;

export const EventFeedSchema = Type.Object(
  {
    events: Type.Array(ShopEventSchema),
    next_after: Type.Integer({
      minimum: 0,
      description: 'The `after` of the next request: the last sequence listed, or `after` again',
    }),
  },
  { $id: 'EventFeed', title: 'EventFeed', additionalProperties: false },
);
export type EventFeed = Static<typeof EventFeedSchema>;

export const EventFeedResponseSchema = DataEnvelope(EventFeedSchema, false, {
  $id: 'EventFeedResponse',
});

export const orderCreatedEventExample: ShopEvent = {
  id: '0f8c2f8e-5d3c-4c59-9a53-3b7f0f6f2b1e',
  sequence: 1042,
  type: 'order.created',
  timestamp: '2026-03-20T14:02:11.000Z',
  data: orderDetailExample,
};

export const listEventsOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'listEvents',
  summary: 'Events in commit order (the catch-up feed)',
  description: [
    'The events after `after`, oldest first, by `sequence`, which increases in the order the',
    'changes were committed: an event that appears later never has a lower sequence than one',
    'already listed, so reading on from the last `sequence` seen misses nothing. The payloads are',
    'those webhooks deliver. Events are kept for `EVENT_RETENTION_DAYS` (30 by default).',
  ].join('\n'),
  querystring: EventFeedQuerySchema,
  response: {
    200: documented(EventFeedResponseSchema, {
      description: 'Up to `limit` events after `after`',
      examples: [{ success: true, data: { events: [orderCreatedEventExample], next_after: 1042 } }],
    }),
    ...shopErrors([400, 'querystring.limit must be <= 500'], 401, 429),
  },
};
