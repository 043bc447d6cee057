import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { shopTag } from './tags.js';

export const StatsSchema = Type.Object(
  {
    products: Type.Integer({ minimum: 0, description: 'Active products' }),
    categories: Type.Integer({ minimum: 0, description: 'Active categories' }),
    orders: Type.Integer({ minimum: 0 }),
    customers: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Stats', title: 'Stats', additionalProperties: false },
);
export type Stats = Static<typeof StatsSchema>;

export const StatsResponseSchema = DataEnvelope(StatsSchema, false, { $id: 'StatsResponse' });
export type StatsResponse = Static<typeof StatsResponseSchema>;

export const getStatsOperation = {
  tags: shopTag('Statistics'),
  operationId: 'getStats',
  summary: 'Overall counts',
  description: '`products` and `categories` count active ones; `orders` and `customers` count all.',
  response: {
    200: documented(StatsResponseSchema, {
      description: 'The counts',
      examples: [
        { success: true, data: { products: 128, categories: 14, orders: 5230, customers: 912 } },
      ],
    }),
    ...shopErrors(401, 429),
  },
};
