// The back office's customers: the list (a part of the e-mail address or name, newest first, an
// exact total) and a customer with their addresses and newest orders. Never a password hash.
import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { AddressSchema, addressExample } from './addresses.js';
import { shopErrors } from './errors.js';
import { CursorPageSchema, OrderStatusSchema, cursorQuery } from './orders.js';
import { DateTime, Id, IdParamsSchema, Money } from './shared.js';
import { shopTag } from './tags.js';

export const AdminCustomerSchema = Type.Object(
  {
    id: Id(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    phone: Type.String(),
    newsletter: Type.Boolean(),
    created_at: DateTime(),
    last_login: Type.Union([DateTime(), Type.Null()], {
      description: 'The last login; null for an account made outside the API that never logged in',
    }),
  },
  { $id: 'AdminCustomer', title: 'AdminCustomer', additionalProperties: false },
);
export type AdminCustomer = Static<typeof AdminCustomerSchema>;

/** How many of a customer's orders the detail shows (newest first); `order_count` counts all. */
export const ADMIN_CUSTOMER_ORDERS = 20;

export const AdminCustomerOrderSchema = Type.Object(
  { id: Id(), status: OrderStatusSchema, total_amount: Money(), created_at: DateTime() },
  { $id: 'AdminCustomerOrder', title: 'AdminCustomerOrder', additionalProperties: false },
);
export type AdminCustomerOrder = Static<typeof AdminCustomerOrderSchema>;

export const AdminCustomerDetailSchema = Type.Object(
  {
    ...AdminCustomerSchema.properties,
    addresses: Type.Array(AddressSchema, { description: 'The default address first' }),
    order_count: Type.Integer({
      minimum: 0,
      description: 'Every order placed with the customer’s token',
    }),
    orders: Type.Array(AdminCustomerOrderSchema, {
      maxItems: ADMIN_CUSTOMER_ORDERS,
      description: `The ${ADMIN_CUSTOMER_ORDERS} newest orders placed with the customer’s token, newest first (GET /admin/orders/{id} gives one in full)`,
    }),
  },
  { $id: 'AdminCustomerDetail', title: 'AdminCustomerDetail', additionalProperties: false },
);
export type AdminCustomerDetail = Static<typeof AdminCustomerDetailSchema>;

export const AdminCustomerListQuerySchema = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A part of the customer’s e-mail address or name (case ignored)',
        examples: ['johannsen'],
      }),
    ),
    ...cursorQuery(50),
  },
  { additionalProperties: false },
);
export type AdminCustomerListQuery = Static<typeof AdminCustomerListQuerySchema>;

export const AdminCustomerListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(AdminCustomerSchema),
    pagination: Type.Object(
      {
        ...CursorPageSchema.properties,
        total: Type.Integer({ minimum: 0, description: 'Every customer matching `q`, exact' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'AdminCustomerListResponse', additionalProperties: false },
);

export const AdminCustomerDetailResponseSchema = DataEnvelope(AdminCustomerDetailSchema, false, {
  $id: 'AdminCustomerDetailResponse',
});

const adminCustomerExample: AdminCustomer = {
  id: 7,
  email: 'jana.johannsen@example.com',
  first_name: 'Jana',
  last_name: 'Johannsen',
  phone: '+49 4131 123456',
  newsletter: true,
  created_at: '2026-01-10T18:30:00.000Z',
  last_login: '2026-03-20T13:55:42.000Z',
};

export const listAdminCustomersOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAdminCustomers',
  summary: 'Customers',
  description: [
    'Newest first, page by page (`cursor`), with the exact `total`. `q` finds customers by a part',
    'of their e-mail address or name (first and last name, case ignored).',
  ].join('\n'),
  querystring: AdminCustomerListQuerySchema,
  response: {
    200: documented(AdminCustomerListResponseSchema, {
      description: 'A page of customers',
      examples: [
        {
          success: true,
          data: [adminCustomerExample],
          pagination: { limit: 50, next_cursor: null, total: 1 },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.cursor is not a cursor this list gave']),
  },
};

export const getAdminCustomerOperation = {
  tags: shopTag('Back office'),
  operationId: 'getAdminCustomer',
  summary: 'A customer with addresses and orders',
  description: `The profile, the addresses and the ${ADMIN_CUSTOMER_ORDERS} newest orders placed with the customer’s token (\`order_count\` counts all). Never the password or its hash.`,
  params: IdParamsSchema,
  response: {
    200: documented(AdminCustomerDetailResponseSchema, {
      description: 'The customer',
      examples: [
        {
          success: true,
          data: {
            ...adminCustomerExample,
            addresses: [addressExample],
            order_count: 1,
            orders: [
              {
                id: 1001,
                status: 'confirmed',
                total_amount: 79.8,
                created_at: '2026-03-20T14:02:11.000Z',
              },
            ],
          },
        },
      ],
    }),
    ...shopErrors([404, 'Customer 999 not found', 'No customer with this id']),
  },
};
