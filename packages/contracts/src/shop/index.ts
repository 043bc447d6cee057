import type { ApiDescription } from '../common.js';
import { shopErrors } from './errors.js';
import { shopTagList } from './tags.js';
import { shopWebhooks } from './webhooks.js';

export * from './shared.js';
export * from './errors.js';
export * from './products.js';
export * from './categories.js';
export * from './reviews.js';
export * from './orders.js';
export * from './customers.js';
export * from './addresses.js';
export * from './newsletter.js';
export * from './stats.js';
export * from './events.js';
export * from './webhooks.js';
export * from './tags.js';

/** The shop's OpenAPI self-description: title, auth schemes, tags and error responses. */
export const shopApi: ApiDescription = {
  title: 'Shop API',
  version: '1.0.0',
  description:
    'Shop catalogue, orders, customer accounts, reviews, newsletter and statistics. Errors: `{success:false, error, status_code}`.',
  securitySchemes: {
    ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  },
  security: [{ ApiKeyAuth: [] }],
  tags: shopTagList,
  errors: shopErrors,
  webhooks: shopWebhooks,
};
