// The back office's sales figures: orders and revenue per day in the shop's time zone, and what
// waits to be done today.
import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { shopTag } from './tags.js';

/** The longest range of one request, in days (both ends included). */
export const MAX_SALES_DAYS = 366;
/** The range when neither end is given: this many days, ending today. */
export const DEFAULT_SALES_DAYS = 30;

/** A calendar day, `YYYY-MM-DD`, years 1000 to 9999. */
const Day = (description: string, example: string) =>
  Type.String({
    format: 'date',
    pattern: '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}$',
    description,
    examples: [example],
  });

/** Revenue: exact sums of order totals, rendered with at most two decimals (no upper bound). */
const Revenue = (description: string) => Type.Number({ minimum: 0, description });

export const SalesDaySchema = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'A day in the shop’s time zone' }),
    orders: Type.Integer({ minimum: 0, description: 'Orders placed that day, cancelled ones not' }),
    revenue: Revenue('The sum of those orders’ totals'),
  },
  { $id: 'SalesDay', title: 'SalesDay', additionalProperties: false },
);
export type SalesDay = Static<typeof SalesDaySchema>;

export const SalesFiguresSchema = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    time_zone: Type.String({
      description: 'The IANA time zone the days are counted in (`SHOP_TIME_ZONE`)',
    }),
    days: Type.Array(SalesDaySchema, {
      description: 'Every day from `from` to `to`, oldest first, days without orders included',
    }),
    totals: Type.Object(
      {
        orders: Type.Integer({ minimum: 0 }),
        revenue: Revenue('The sum over the range'),
      },
      { additionalProperties: false, description: 'The whole range' },
    ),
    todo: Type.Object(
      {
        pending_orders: Type.Integer({ minimum: 0, description: 'Orders waiting in `pending`' }),
        products_out_of_stock: Type.Integer({
          minimum: 0,
          description: 'Active products with stock 0',
        }),
      },
      { additionalProperties: false, description: 'What waits to be done now' },
    ),
  },
  { $id: 'SalesFigures', title: 'SalesFigures', additionalProperties: false },
);
export type SalesFigures = Static<typeof SalesFiguresSchema>;

export const SalesQuerySchema = Type.Object(
  {
    from: Type.Optional(
      Day(
        `The first day, in the shop’s time zone; default: ${DEFAULT_SALES_DAYS - 1} days before \`to\``,
        '2026-11-01',
      ),
    ),
    to: Type.Optional(
      Day('The last day (included), in the shop’s time zone; default: today', '2026-11-30'),
    ),
  },
  { additionalProperties: false },
);
export type SalesQuery = Static<typeof SalesQuerySchema>;

export const SalesFiguresResponseSchema = DataEnvelope(SalesFiguresSchema, false, {
  $id: 'SalesFiguresResponse',
});

export const getSalesFiguresOperation = {
  tags: shopTag('Back office'),
  operationId: 'getSalesFigures',
  summary: 'Sales per day, and today’s to-do counts',
  description: [
    'Orders and revenue per day from `from` to `to` (both included), days counted from midnight',
    'to midnight in the shop’s time zone (`SHOP_TIME_ZONE`, default Europe/Berlin; a day of a',
    'daylight-saving change has 23 or 25 hours). Cancelled orders are left out; an order counts',
    `on the day it was placed, whatever its status now. At most ${MAX_SALES_DAYS} days, \`from\``,
    `≤ \`to\` (else 400); by default the ${DEFAULT_SALES_DAYS} days ending today.`,
  ].join('\n'),
  querystring: SalesQuerySchema,
  response: {
    200: documented(SalesFiguresResponseSchema, {
      description: 'The figures',
      examples: [
        {
          success: true,
          data: {
            from: '2026-11-29',
            to: '2026-11-30',
            time_zone: 'Europe/Berlin',
            days: [
              { date: '2026-11-29', orders: 0, revenue: 0 },
              { date: '2026-11-30', orders: 2, revenue: 104.7 },
            ],
            totals: { orders: 2, revenue: 104.7 },
            todo: { pending_orders: 1, products_out_of_stock: 3 },
          },
        },
      ],
    }),
    ...shopErrors([
      400,
      `the range is longer than ${MAX_SALES_DAYS} days (from 2025-01-01 to 2026-11-30)`,
    ]),
  },
};
