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
export * from './access.js';
export * from './admin-orders.js';
export * from './admin-catalogue.js';
export * from './admin-customers.js';
export * from './admin-reviews.js';
export * from './admin-sales.js';
export * from './admin-audit.js';

/** The shop's OpenAPI self-description: title, auth schemes, tags and error responses. */
export const shopApi: ApiDescription = {
  title: 'Shop API',
  version: '1.0.0',
  description:
    'Shop catalogue, orders, customer accounts, reviews, newsletter and statistics. Errors: `{success:false, error, status_code}`.',
  securitySchemes: {
    ApiKeyAuth: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'A publishable key (`pk_…`, a storefront’s, safe in a browser) or a secret key (`sk_…`, with scopes; keys made before key kinds existed are secret keys with every scope). The scopes an operation needs are listed in its security requirement and its description.',
    },
    BearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'A customer’s token (POST /customers/login or /customers/register)',
    },
    StaffAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A staff account’s token (POST /admin/auth/login); its role decides what it opens',
    },
  },
  security: [{ ApiKeyAuth: [] }],
  tags: shopTagList,
  errors: shopErrors,
  webhooks: shopWebhooks,
};
