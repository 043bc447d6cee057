import { PaginationSchema, ShopErrorSchema } from '../common.js';
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
