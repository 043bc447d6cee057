// The back office's orders: the list with filters and an exact total, an order with its timeline,
// status changes and notes by staff, and the CSV export of a filter.
import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { ActorSchema } from './access.js';
import { shopErrors } from './errors.js';
import {
  CursorPageSchema,
  OrderItemSchema,
  OrderStatusSchema,
  cursorQuery,
  orderDetailExample,
} from './orders.js';
import {
  DateTime,
  Id,
  IdParamsSchema,
  Money,
  Text,
  csvDownload,
  csvExportDescription,
  csvExportQuery,
} from './shared.js';
import { shopTag } from './tags.js';

export const AdminOrderSchema = Type.Object(
  {
    id: Id(),
    customer_name: Type.String(),
    customer_email: Type.String(),
    customer_phone: Type.String(),
    customer_id: Type.Union([Id(), Type.Null()], {
      description: 'The customer whose token placed it; null for a guest',
    }),
    total_amount: Money(),
    status: OrderStatusSchema,
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'AdminOrder', title: 'AdminOrder', additionalProperties: false },
);
export type AdminOrder = Static<typeof AdminOrderSchema>;

/**
 * Statuses besides the order's own `status` in one answer are unnamed copies: the serializer
 * refuses a second schema with the `OrderStatus` id in the same answer.
 */
const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
const statusOrNull = (description: string) =>
  Type.Union([Type.Enum(ORDER_STATUSES), Type.Null()], { description });

export const OrderTimelineEntrySchema = Type.Object(
  {
    type: Type.Union([Type.Literal('status'), Type.Literal('note')]),
    at: DateTime(),
    actor: Type.Union([ActorSchema, Type.Null()], {
      description:
        'Who did it; null for the order’s creation by a guest and changes before the back office',
    }),
    from: statusOrNull(
      'A status change’s earlier status (null for the order’s creation and for notes)',
    ),
    to: statusOrNull('A status change’s new status (null for notes)'),
    note: Type.Union([Type.String(), Type.Null()], {
      description: 'A status change’s note, or the note’s text',
    }),
  },
  { $id: 'OrderTimelineEntry', title: 'OrderTimelineEntry', additionalProperties: false },
);
export type OrderTimelineEntry = Static<typeof OrderTimelineEntrySchema>;

export const AdminOrderDetailSchema = Type.Object(
  {
    ...AdminOrderSchema.properties,
    items: Type.Array(OrderItemSchema),
    allowed_next: Type.Array(Type.Enum(ORDER_STATUSES), {
      description: 'The statuses this order may change to now',
    }),
    timeline: Type.Array(OrderTimelineEntrySchema, { description: 'Oldest first' }),
  },
  { $id: 'AdminOrderDetail', title: 'AdminOrderDetail', additionalProperties: false },
);
export type AdminOrderDetail = Static<typeof AdminOrderDetailSchema>;

export const ADMIN_ORDER_SORTS = ['-created_at', 'created_at', '-total_amount'] as const;
export type AdminOrderSort = (typeof ADMIN_ORDER_SORTS)[number];

/** The filters of the list and of its export. */
const orderFilters = {
  status: Type.Optional(
    Type.Array(OrderStatusSchema, {
      maxItems: 5,
      description: 'One or more statuses (`status=pending&status=confirmed`)',
      examples: [['pending', 'confirmed']],
    }),
  ),
  created_from: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Orders from this time on',
      examples: ['2026-11-01T00:00:00.000Z'],
    }),
  ),
  created_to: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Exclusive: orders before this time',
      examples: ['2026-12-01T00:00:00.000Z'],
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'An order number, a whole e-mail address (that address’s orders), or a part of the customer’s e-mail address, name or phone number (case ignored)',
      examples: ['johannsen'],
    }),
  ),
};

export const AdminOrderListQuerySchema = Type.Object(
  {
    ...orderFilters,
    sort: Type.Enum(ADMIN_ORDER_SORTS, {
      default: '-created_at',
      description: 'Newest first (default), oldest first, or the largest total first',
      examples: ['-created_at'],
    }),
    ...cursorQuery(50),
  },
  { additionalProperties: false },
);
export type AdminOrderListQuery = Static<typeof AdminOrderListQuerySchema>;

export const AdminOrderExportQuerySchema = Type.Object(
  {
    ...orderFilters,
    ...csvExportQuery(),
  },
  { additionalProperties: false },
);
export type AdminOrderExportQuery = Static<typeof AdminOrderExportQuerySchema>;

export const AdminOrderListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(AdminOrderSchema),
    pagination: Type.Object(
      {
        ...CursorPageSchema.properties,
        total: Type.Integer({ minimum: 0, description: 'Every order matching the filters, exact' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'AdminOrderListResponse', additionalProperties: false },
);

export const AdminOrderDetailResponseSchema = DataEnvelope(AdminOrderDetailSchema, false, {
  $id: 'AdminOrderDetailResponse',
});

export const ChangeOrderStatusBodySchema = Type.Object(
  { status: OrderStatusSchema, note: Type.Optional(Text(1000)) },
  { $id: 'ChangeOrderStatusBody', title: 'ChangeOrderStatusBody', additionalProperties: false },
);
export type ChangeOrderStatusBody = Static<typeof ChangeOrderStatusBodySchema>;

export const AddOrderNoteBodySchema = Type.Object(
  { text: Text(2000) },
  { $id: 'AddOrderNoteBody', title: 'AddOrderNoteBody', additionalProperties: false },
);

export const OrderNoteResponseSchema = DataEnvelope(OrderTimelineEntrySchema, false, {
  $id: 'OrderNoteResponse',
});

const adminOrderExample: AdminOrder = {
  id: orderDetailExample.id,
  customer_name: orderDetailExample.customer_name,
  customer_email: orderDetailExample.customer_email,
  customer_phone: '+49 4131 123456',
  customer_id: null,
  total_amount: orderDetailExample.total_amount,
  status: 'confirmed',
  created_at: orderDetailExample.created_at,
  updated_at: '2026-03-20T15:10:00.000Z',
};
const staffActorExample = { type: 'staff' as const, id: 3, name: 'Mia Berger' };
const adminOrderDetailExample: AdminOrderDetail = {
  ...adminOrderExample,
  items: orderDetailExample.items,
  allowed_next: ['shipped', 'cancelled'],
  timeline: [
    {
      type: 'status',
      at: orderDetailExample.created_at,
      actor: null,
      from: null,
      to: 'pending',
      note: null,
    },
    {
      type: 'status',
      at: '2026-03-20T15:10:00.000Z',
      actor: staffActorExample,
      from: 'pending',
      to: 'confirmed',
      note: 'Paid by transfer',
    },
    {
      type: 'note',
      at: '2026-03-20T15:12:00.000Z',
      actor: staffActorExample,
      from: null,
      to: null,
      note: 'Customer asked for a gift wrap',
    },
  ],
};
const orderNotFound = [404, 'Order 999 not found', 'No order with this id'] as const;

export const listAdminOrdersOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAdminOrders',
  summary: 'Orders',
  description: [
    'Newest first by default, page by page (`cursor`), with the exact `total` of the filter.',
    '`q` finds an order by its number, or by a part of the e-mail address, name or phone.',
  ].join('\n'),
  querystring: AdminOrderListQuerySchema,
  response: {
    200: documented(AdminOrderListResponseSchema, {
      description: 'A page of orders',
      examples: [
        {
          success: true,
          data: [adminOrderExample],
          pagination: { limit: 50, next_cursor: null, total: 1 },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.cursor is not a cursor this list gave']),
  },
};

export const getAdminOrderOperation = {
  tags: shopTag('Back office'),
  operationId: 'getAdminOrder',
  summary: 'An order with its items and timeline',
  params: IdParamsSchema,
  response: {
    200: documented(AdminOrderDetailResponseSchema, {
      description: 'The order',
      examples: [{ success: true, data: adminOrderDetailExample }],
    }),
    ...shopErrors([...orderNotFound]),
  },
};

export const changeAdminOrderStatusOperation = {
  tags: shopTag('Back office'),
  operationId: 'changeAdminOrderStatus',
  summary: 'Change an order’s status',
  description: [
    'Only to an allowed next status (the order’s `allowed_next`): pending → confirmed | cancelled;',
    'confirmed → shipped | cancelled; shipped → delivered. Another is 409 naming the allowed ones;',
    'the current status again changes nothing. A cancellation puts the stock back. The change and',
    'its note enter the order’s timeline with who made it.',
  ].join('\n'),
  params: IdParamsSchema,
  body: documented(ChangeOrderStatusBodySchema, {
    examples: [{ status: 'shipped', note: 'DHL 00340434161094042557' }],
  }),
  response: {
    200: documented(AdminOrderDetailResponseSchema, {
      description: 'The order as changed',
      examples: [{ success: true, data: adminOrderDetailExample }],
    }),
    ...shopErrors(
      [...orderNotFound],
      [409, 'cannot change order 1001 from delivered to pending (delivered allows: no change)'],
    ),
  },
};

export const addOrderNoteOperation = {
  tags: shopTag('Back office'),
  operationId: 'addOrderNote',
  summary: 'Add a note to an order',
  params: IdParamsSchema,
  body: documented(AddOrderNoteBodySchema, {
    examples: [{ text: 'Customer asked for a gift wrap' }],
  }),
  response: {
    201: documented(OrderNoteResponseSchema, {
      description: 'The note, as its timeline shows it',
      examples: [{ success: true, data: adminOrderDetailExample.timeline[2]! }],
    }),
    ...shopErrors([...orderNotFound]),
  },
};

export const ADMIN_ORDER_EXPORT_COLUMNS = [
  'id',
  'created_at',
  'status',
  'customer_name',
  'customer_email',
  'customer_phone',
  'customer_id',
  'total_amount',
  'items',
] as const;

export const exportAdminOrdersOperation = {
  tags: shopTag('Back office'),
  operationId: 'exportAdminOrders',
  summary: 'Export orders as CSV',
  description: csvExportDescription('order', 'newest first', ADMIN_ORDER_EXPORT_COLUMNS),
  querystring: AdminOrderExportQuerySchema,
  response: {
    200: csvDownload(
      'orders',
      'order',
      ADMIN_ORDER_EXPORT_COLUMNS,
      '1001,2026-03-20T14:02:11.000Z,confirmed,Jana Johannsen,jana.johannsen@example.com,+49 4131 123456,,79.8,2',
    ),
  },
};
