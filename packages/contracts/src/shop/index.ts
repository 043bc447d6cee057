import { PaginationSchema, ShopErrorSchema, type ApiDescription } from '../common.js';
import { AddressResponseSchema, AddressSchema } from './addresses.js';
import { CategoryListResponseSchema, CategorySchema } from './categories.js';
import { AuthResponseSchema, ProfileResponseSchema, ProfileSchema } from './customers.js';
import { SubscribeResponseSchema } from './newsletter.js';
import {
  CreateOrderResponseSchema,
  OrderDetailResponseSchema,
  OrderDetailSchema,
  OrderItemInputSchema,
} from './orders.js';
import {
  ProductDetailResponseSchema,
  ProductDetailSchema,
  ProductListResponseSchema,
  ProductSchema,
} from './products.js';
import { CreateReviewResponseSchema, ReviewListResponseSchema, ReviewSchema } from './reviews.js';
import { StatsResponseSchema } from './stats.js';

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

/**
 * The shop's named schemas (each with an `$id`), for the OpenAPI components: every one becomes
 * `components.schemas.<$id>` (with those nested in it), and responses refer to it. Request bodies
 * are written inline (see `documentedBody`), the schemas nested in them by reference.
 */
export const shopSchemas = [
  ShopErrorSchema,
  PaginationSchema,
  ProductSchema,
  ProductDetailSchema,
  ProductListResponseSchema,
  ProductDetailResponseSchema,
  CategorySchema,
  CategoryListResponseSchema,
  ReviewSchema,
  ReviewListResponseSchema,
  CreateReviewResponseSchema,
  OrderDetailSchema,
  OrderDetailResponseSchema,
  OrderItemInputSchema,
  CreateOrderResponseSchema,
  AuthResponseSchema,
  ProfileSchema,
  ProfileResponseSchema,
  AddressSchema,
  AddressResponseSchema,
  SubscribeResponseSchema,
  StatsResponseSchema,
] as const;

/** The shop's OpenAPI self-description: title, auth schemes, tags and named schemas. */
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
  tags: [
    { name: 'Products', description: 'Catalogue of active products' },
    { name: 'Categories', description: 'Active categories' },
    { name: 'Orders', description: 'Orders with stock and status' },
    { name: 'Customers', description: 'Accounts, login and profile' },
    { name: 'Reviews', description: 'Product reviews' },
    { name: 'Newsletter', description: 'Newsletter subscription' },
    { name: 'Statistics', description: 'Overall counts' },
    { name: 'Operations', description: 'Health and readiness' },
  ],
  schemas: shopSchemas,
};
