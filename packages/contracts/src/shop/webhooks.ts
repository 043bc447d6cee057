import { Type, type Static, type TSchema } from 'typebox';
import {
  DataEnvelope,
  PaginationSchema,
  SuccessMessageSchema,
  documented,
  type WebhookDoc,
} from '../common.js';
import { shopErrors } from './errors.js';
import {
  EVENT_TYPES,
  OrderStatusChangeSchema,
  ProductCreatedSchema,
  ProductStockChangeSchema,
  ProductUpdatedSchema,
  type EventData,
  type EventType,
} from './events.js';
import { OrderDetailSchema, orderDetailExample } from './orders.js';
import { productExample } from './products.js';
import { ReviewSchema, reviewExample } from './reviews.js';
import { DateTime, Id, IdParamsSchema, pageQuery } from './shared.js';
import { shopTag } from './tags.js';

const WebhookUrl = () =>
  Type.String({
    format: 'uri',
    maxLength: 2000,
    description:
      'https (http only where the shop allows it for development); its host must be, and resolve to, public addresses only',
  });

const WebhookEvents = () =>
  Type.Array(Type.Unsafe<EventType | '*'>({ type: 'string', enum: [...EVENT_TYPES, '*'] }), {
    minItems: 1,
    maxItems: EVENT_TYPES.length + 1,
    uniqueItems: true,
    description: 'The event types to send, or `["*"]` for all',
  });

const WebhookDescription = () => Type.String({ maxLength: 500 });

export const WebhookSchema = Type.Object(
  {
    id: Id(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.String(),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the shop disabled it (failing for 5 days); null otherwise',
    }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'Webhook', title: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  {
    ...WebhookSchema.properties,
    secret: Type.String({
      pattern: '^whsec_',
      description: 'The signing secret (Standard Webhooks); shown only in this answer',
    }),
  },
  { $id: 'CreatedWebhook', title: 'CreatedWebhook', additionalProperties: false },
);
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const CreateWebhookBodySchema = Type.Object(
  {
    url: WebhookUrl(),
    events: WebhookEvents(),
    description: Type.Optional(WebhookDescription()),
  },
  { $id: 'CreateWebhookBody', title: 'CreateWebhookBody', additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;

export const UpdateWebhookBodySchema = Type.Object(
  {
    url: Type.Optional(WebhookUrl()),
    events: Type.Optional(WebhookEvents()),
    enabled: Type.Optional(
      Type.Boolean({ description: 'true re-enables a disabled subscription' }),
    ),
    description: Type.Optional(WebhookDescription()),
  },
  { $id: 'UpdateWebhookBody', title: 'UpdateWebhookBody', additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBodySchema>;

export const RotatedSecretSchema = Type.Object(
  {
    secret: Type.String({ pattern: '^whsec_' }),
    previous_secret_expires_at: DateTime(),
  },
  { $id: 'RotatedSecret', title: 'RotatedSecret', additionalProperties: false },
);
export type RotatedSecret = Static<typeof RotatedSecretSchema>;

export const DeliveryOutcomeSchema = Type.Union(
  [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')],
  { $id: 'DeliveryOutcome', title: 'DeliveryOutcome' },
);
export type DeliveryOutcome = Static<typeof DeliveryOutcomeSchema>;

export const DeliverySchema = Type.Object(
  {
    id: Id(),
    event_id: Type.String({ format: 'uuid', description: 'The `webhook-id` of every attempt' }),
    event_type: Type.String(),
    status: DeliveryOutcomeSchema,
    attempts: Type.Integer({ minimum: 0 }),
    next_attempt_at: Type.Union([DateTime(), Type.Null()], {
      description: 'When it is tried next (pending only)',
    }),
    created_at: DateTime(),
    log: Type.Array(
      Type.Object(
        {
          at: DateTime(),
          status_code: Type.Union([Type.Integer(), Type.Null()]),
          error: Type.Union([Type.String(), Type.Null()]),
          duration_ms: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each attempt, oldest first' },
    ),
  },
  { $id: 'Delivery', title: 'Delivery', additionalProperties: false },
);
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveryListQuerySchema = Type.Object(
  {
    ...pageQuery('Deliveries per page', 20),
    outcome: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
        description: 'Only deliveries with this status',
        examples: ['failed'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryListQuery = Static<typeof DeliveryListQuerySchema>;

export const DeliveryParamsSchema = Type.Object(
  { id: Id('Id of the webhook', [3]), deliveryId: Id('Id of the delivery', [812]) },
  { additionalProperties: false },
);

const webhookExample: Webhook = {
  id: 3,
  url: 'https://erp.example.com/hooks/shop',
  events: ['order.created', 'order.status_changed'],
  description: 'ERP',
  enabled: true,
  disabled_reason: null,
  created_at: '2026-03-20T14:02:11.000Z',
  updated_at: '2026-03-20T14:02:11.000Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const deliveryExample: Delivery = {
  id: 812,
  event_id: '0f8c2f8e-5d3c-4c59-9a53-3b7f0f6f2b1e',
  event_type: 'order.created',
  status: 'delivered',
  attempts: 2,
  next_attempt_at: null,
  created_at: '2026-03-20T14:02:11.000Z',
  log: [
    { at: '2026-03-20T14:02:11.200Z', status_code: 503, error: null, duration_ms: 41 },
    { at: '2026-03-20T14:02:16.900Z', status_code: 200, error: null, duration_ms: 38 },
  ],
};

const webhookNotFound = [404, 'Webhook 999 not found', 'No webhook with this id'] as const;
const refusedTarget = [
  400,
  'body.url: webhook-target.example resolves to 10.0.0.5, which is not a public address',
  'Invalid body, or a URL that is not https or whose host is or resolves to a non-public address',
] as const;

export const createWebhookOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'createWebhook',
  summary: 'Subscribe a URL to events',
  description: [
    'Events are POSTed to `url` by the Standard Webhooks scheme: headers `webhook-id` (the event',
    'id: deduplicate on it), `webhook-timestamp` and `webhook-signature`; body `{type, timestamp,',
    'data}`. A 2xx within 10 s acknowledges; anything else is retried (after about 5 s, 5 min,',
    '30 min, 2 h, 5 h, then every 10 h); a subscription failing for 5 days is disabled. The',
    'answer carries the signing secret, shown only here.',
  ].join('\n'),
  body: documented(CreateWebhookBodySchema, {
    examples: [
      {
        url: webhookExample.url,
        events: ['order.created', 'order.status_changed'],
        description: 'ERP',
      },
    ],
  }),
  response: {
    201: documented(DataEnvelope(CreatedWebhookSchema, false, { $id: 'WebhookCreatedResponse' }), {
      description: 'Subscribed; the secret is shown only in this answer',
      examples: [{ success: true, data: { ...webhookExample, secret: secretExample } }],
    }),
    ...shopErrors([...refusedTarget], 401, 413, 415, 429),
  },
};

export const listWebhooksOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'listWebhooks',
  summary: 'The webhook subscriptions',
  description: 'Every subscription, oldest first; secrets are never shown again.',
  response: {
    200: documented(DataEnvelope(Type.Array(WebhookSchema), false, { $id: 'WebhookList' }), {
      description: 'Every subscription, oldest first',
      examples: [{ success: true, data: [webhookExample] }],
    }),
    ...shopErrors(401, 429),
  },
};

const WebhookResponseSchema = DataEnvelope(WebhookSchema, false, { $id: 'WebhookResponse' });

export const getWebhookOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'getWebhook',
  summary: 'One webhook subscription',
  description:
    'The subscription without its secret; `disabled_reason` says why the shop disabled it.',
  params: IdParamsSchema,
  response: {
    200: documented(WebhookResponseSchema, {
      description: 'The subscription',
      examples: [{ success: true, data: webhookExample }],
    }),
    ...shopErrors([400, 'params.id must be >= 1'], 401, [...webhookNotFound], 429),
  },
};

export const updateWebhookOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'updateWebhook',
  summary: 'Change a webhook subscription',
  description:
    'Changes the fields given. `enabled: true` re-enables a subscription the shop disabled; its pending deliveries are tried again at once.',
  params: IdParamsSchema,
  body: documented(UpdateWebhookBodySchema, { examples: [{ events: ['*'], enabled: true }] }),
  response: {
    200: documented(WebhookResponseSchema, {
      description: 'The subscription as changed',
      examples: [{ success: true, data: { ...webhookExample, events: ['*'] } }],
    }),
    ...shopErrors([...refusedTarget], 401, [...webhookNotFound], 413, 415, 429),
  },
};

export const deleteWebhookOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook subscription and its deliveries',
  description: 'Nothing more is sent to it, retries included; its delivery log goes with it.',
  params: IdParamsSchema,
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'Deleted',
      examples: [{ success: true, message: 'Webhook 3 deleted' }],
    }),
    ...shopErrors([400, 'params.id must be >= 1'], 401, [...webhookNotFound], 429),
  },
};

export const rotateWebhookSecretOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'rotateWebhookSecret',
  summary: 'Replace the signing secret',
  description:
    'Returns the new secret. For 24 hours deliveries carry two signatures, by the new and the previous secret, so a receiver can switch without losing a delivery.',
  params: IdParamsSchema,
  response: {
    200: documented(DataEnvelope(RotatedSecretSchema, false, { $id: 'RotatedSecretResponse' }), {
      description: 'The new secret, shown only here',
      examples: [
        {
          success: true,
          data: { secret: secretExample, previous_secret_expires_at: '2026-03-21T14:02:11.000Z' },
        },
      ],
    }),
    ...shopErrors([400, 'params.id must be >= 1'], 401, [...webhookNotFound], 429),
  },
};

const DeliveryResponseSchema = DataEnvelope(DeliverySchema, false, { $id: 'DeliveryResponse' });

export const pingWebhookOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'pingWebhook',
  summary: 'Send a webhook.ping event',
  description:
    'Queues a `webhook.ping` event (data: `{webhook_id}`) for this subscription alone, delivered and retried like any other.',
  params: IdParamsSchema,
  response: {
    202: documented(DeliveryResponseSchema, {
      description: 'The ping is queued; its delivery is in the log',
      examples: [
        {
          success: true,
          data: {
            ...deliveryExample,
            event_type: 'webhook.ping',
            status: 'pending',
            attempts: 0,
            next_attempt_at: '2026-03-20T14:02:11.000Z',
            log: [],
          },
        },
      ],
    }),
    ...shopErrors([400, 'params.id must be >= 1'], 401, [...webhookNotFound], 429),
  },
};

export const DeliveryPageSchema = Type.Object(
  { deliveries: Type.Array(DeliverySchema), pagination: PaginationSchema },
  { $id: 'DeliveryPage', title: 'DeliveryPage', additionalProperties: false },
);
export type DeliveryPage = Static<typeof DeliveryPageSchema>;

export const listDeliveriesOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'listWebhookDeliveries',
  summary: "A subscription's deliveries, newest first",
  description: 'Each delivery with its attempts; `outcome` filters by status.',
  params: IdParamsSchema,
  querystring: DeliveryListQuerySchema,
  response: {
    200: documented(DataEnvelope(DeliveryPageSchema, false, { $id: 'DeliveryListResponse' }), {
      description: 'One page of deliveries',
      examples: [
        {
          success: true,
          data: {
            deliveries: [deliveryExample],
            pagination: { page: 1, limit: 20, total: 1, pages: 1 },
          },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.limit must be <= 50'], 401, [...webhookNotFound], 429),
  },
};

export const retryDeliveryOperation = {
  tags: shopTag('Webhooks'),
  operationId: 'retryWebhookDelivery',
  summary: 'Send a delivery again now',
  description:
    'Makes the delivery due at once, whatever its outcome so far (a delivered one is sent again, with the same `webhook-id`).',
  params: DeliveryParamsSchema,
  response: {
    202: documented(DeliveryResponseSchema, {
      description: 'The delivery is due',
      examples: [{ success: true, data: { ...deliveryExample, status: 'pending' } }],
    }),
    ...shopErrors(
      [400, 'params.deliveryId must be >= 1'],
      401,
      [404, 'Delivery 812 of webhook 3 not found', 'No such webhook, or no such delivery of it'],
      429,
    ),
  },
};

// ---------------------------------------------------------------------------------------------
// What a subscription receives: the OpenAPI document's `webhooks`, one per event type.

/** The data of a `webhook.ping` (POST /webhooks/{id}/ping): which subscription it tests. */
export const WebhookPingSchema = Type.Object(
  { webhook_id: Id('The subscription pinged') },
  { $id: 'WebhookPing', title: 'WebhookPing', additionalProperties: false },
);
export type WebhookPing = Static<typeof WebhookPingSchema>;

/** Every event type a subscription can receive: the shop's events, and the ping. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, 'webhook.ping'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The data of each event type a subscription can receive. */
export type WebhookEventData = EventData & { 'webhook.ping': WebhookPing };

/** What each event type means, its data and an example of it. */
const DELIVERED: {
  [T in WebhookEventType]: {
    operationId: string;
    summary: string;
    description: string;
    data: TSchema;
    example: WebhookEventData[T];
  };
} = {
  'order.created': {
    operationId: 'orderCreatedWebhook',
    summary: 'An order was placed',
    description:
      'An order was placed (`POST /orders`); `data` is the order as `GET /orders/{id}` shows it.',
    data: OrderDetailSchema,
    example: orderDetailExample,
  },
  'order.status_changed': {
    operationId: 'orderStatusChangedWebhook',
    summary: "An order's status changed",
    description:
      "An order's status changed (`PUT /orders/{id}`, `POST /admin/orders/{id}/status`): `from`, `to`, the order as changed, and who changed it.",
    data: OrderStatusChangeSchema,
    example: {
      from: 'pending',
      to: 'confirmed',
      order: { ...orderDetailExample, status: 'confirmed' },
      actor: { type: 'staff', id: 3, name: 'Mia Berger' },
    },
  },
  'review.created': {
    operationId: 'reviewCreatedWebhook',
    summary: 'A review was written',
    description:
      "A customer reviewed a product; `data` is the review as the product's reviews list it.",
    data: ReviewSchema,
    example: reviewExample,
  },
  'product.out_of_stock': {
    operationId: 'productOutOfStockWebhook',
    summary: 'A product sold out',
    description:
      "A change took a product's stock to 0 (an order, or a stock movement); `actor` names who made it, when known.",
    data: ProductStockChangeSchema,
    example: { product_id: 12, name: 'Tracking lead 10 m', stock: 0 },
  },
  'product.back_in_stock': {
    operationId: 'productBackInStockWebhook',
    summary: 'A product is in stock again',
    description:
      'A change gave a sold-out product stock again (a cancelled order, or a stock movement); `actor` names who made it, when known.',
    data: ProductStockChangeSchema,
    example: {
      product_id: 12,
      name: 'Tracking lead 10 m',
      stock: 2,
      actor: { type: 'staff', id: 3, name: 'Mia Berger' },
    },
  },
  'product.created': {
    operationId: 'productCreatedWebhook',
    summary: 'A product was added',
    description:
      'A product was added to the catalogue; `data` is the product as `GET /products/{id}` shows it (without reviews), and who added it.',
    data: ProductCreatedSchema,
    example: { ...productExample, actor: { type: 'staff', id: 3, name: 'Mia Berger' } },
  },
  'product.updated': {
    operationId: 'productUpdatedWebhook',
    summary: 'A product was changed',
    description:
      "A product's price, name, description, category or active flag changed; `data` is the product as changed (as `GET /products/{id}` shows it, without reviews), `changes` the fields that changed, and who changed them.",
    data: ProductUpdatedSchema,
    example: {
      ...productExample,
      price: 42.5,
      changes: ['price'],
      actor: { type: 'api_key', id: 7, name: 'ERP sync' },
    },
  },
  'webhook.ping': {
    operationId: 'webhookPingWebhook',
    summary: 'A test delivery',
    description:
      'Sent to one subscription when `POST /webhooks/{id}/ping` asks for it; not an event of the shop (the feed does not list it).',
    data: WebhookPingSchema,
    example: { webhook_id: 3 },
  },
};

const exampleTimestamp = '2026-03-20T14:02:11.000Z';

/** The Standard Webhooks headers of every delivery. */
const deliveryHeaders = [
  {
    name: 'webhook-id',
    in: 'header' as const,
    required: true,
    description:
      'The event id: the same on every attempt of the event (and the `id` the feed lists), so a receiver that keeps the ids it has handled handles each event once.',
    schema: Type.String({ format: 'uuid' }),
    example: '0f8c2f8e-5d3c-4c59-9a53-3b7f0f6f2b1e',
  },
  {
    name: 'webhook-timestamp',
    in: 'header' as const,
    required: true,
    description:
      'When this attempt was signed, in seconds since 1970-01-01 UTC. Refuse one far from now (Standard Webhooks libraries allow 5 minutes): a replayed old request.',
    schema: Type.String({ pattern: '^[0-9]+$' }),
    example: '1774015331',
  },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description: [
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` (the body',
      "exactly as received) under the subscription's secret (`whsec_…`, base64 after the",
      "prefix). Space-separated, two signatures while a rotation's overlap lasts (24 hours):",
      'by the new and the previous secret; one matching is enough. Any Standard Webhooks',
      'library verifies it, and the timestamp, with the secret.',
    ].join(' '),
    schema: Type.String({ pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' }),
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

/** What the receiver's answer means: the same for every event type. */
const deliveryResponses = {
  '2XX': {
    description:
      'Acknowledged: a 2xx answered within 10 s. The event is not sent to this subscription again (unless a retry is asked for: `POST /webhooks/{id}/deliveries/{deliveryId}/retry`).',
  },
  default: {
    description: [
      'Not acknowledged: any other status (a 3xx too: redirects are not followed), no answer',
      'within 10 s, or no connection. The delivery is retried after about 5 s, 5 min, 30 min,',
      '2 h, 5 h, then every 10 h (±15 %), with the same `webhook-id`; a subscription failing for',
      '5 days is disabled (`disabled_reason` says why; `PATCH {enabled: true}` sends what is',
      'pending).',
    ].join(' '),
  },
};

/** The body a delivery of `type` POSTs: `{type, timestamp, data}`, signed. */
export const deliveredEventSchema = (type: WebhookEventType, data: TSchema) =>
  Type.Object(
    {
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When it happened' }),
      data,
    },
    { additionalProperties: false },
  );

/** The POST a subscription that wants `type` receives. */
function deliveredEvent(type: WebhookEventType): WebhookDoc {
  const { data, example, ...doc } = DELIVERED[type];
  return {
    post: {
      ...doc,
      tags: shopTag('Webhooks'),
      // The shop's API key is for requests to it: these are signed instead.
      security: [],
      parameters: deliveryHeaders,
      requestBody: {
        description: `The \`${type}\` event: \`data\` is its payload. Verify the signature over these bytes before parsing them.`,
        required: true,
        content: {
          'application/json': {
            schema: deliveredEventSchema(type, data),
            example: { type, timestamp: exampleTimestamp, data: example },
          },
        },
      },
      responses: deliveryResponses,
    },
  };
}

/**
 * The shop's `webhooks` (OpenAPI 3.1): for each event type, the POST a subscription that wants
 * it receives, its headers, its body (with the data's named schema) and what the answer means.
 */
export const shopWebhooks = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, deliveredEvent(type)]),
) as Record<WebhookEventType, WebhookDoc>;
