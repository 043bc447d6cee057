import { named, type ServiceContext } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ShopConfig } from '../config.js';
import { API_KEYS_TOPIC } from '../modules/api-keys/service.js';
import { addressRoutes } from './addresses/index.js';
import { apiKeyRoutes } from './admin/api-keys.js';
import { auditRoutes } from './admin/audit.js';
import { staffAuthRoutes } from './admin/auth.js';
import { adminCategoryRoutes } from './admin/categories.js';
import { adminCustomerRoutes } from './admin/customers.js';
import { adminOrderRoutes } from './admin/orders.js';
import { adminProductRoutes } from './admin/products.js';
import { adminReviewRoutes } from './admin/reviews.js';
import { adminSalesRoutes } from './admin/sales.js';
import { staffRoutes } from './admin/staff.js';
import { categoryRoutes } from './categories/index.js';
import { customerRoutes } from './customers/index.js';
import { eventRoutes } from './events/index.js';
import { newsletterRoutes } from './newsletter/index.js';
import { orderRoutes } from './orders/index.js';
import { productRoutes } from './products/index.js';
import { reviewRoutes } from './reviews/index.js';
import { statsRoutes } from './stats/index.js';
import { webhookRoutes } from './webhooks/index.js';

/**
 * Every resource's routes. Each route declares its auth (`config.auth`: `apiKey`, `customer`,
 * `staff`, `scoped` with its `config.scope`, or `none`; plugins/auth.ts) and whether its answers are personal (`Cache-Control: private, no-store`); service-kit's
 * `routeAuth`, registered just before this, enforces and documents both.
 */
export const routes: FastifyPluginAsyncTypebox<ServiceContext<ShopConfig>> = async (
  app,
  { config, shared },
) => {
  await app.register(named(productRoutes));
  await app.register(named(categoryRoutes));
  await app.register(named(reviewRoutes));
  await app.register(named(orderRoutes));
  await app.register(named(customerRoutes), {
    authRateLimitPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(named(addressRoutes));
  await app.register(named(newsletterRoutes));
  await app.register(named(statsRoutes));
  await app.register(named(eventRoutes));
  await app.register(named(webhookRoutes), { webhooks: config.webhooks });
  // The back office (`/admin/…`): staff sign-in, staff accounts, orders, catalogue, customers,
  // reviews, sales figures, the audit, API keys.
  await app.register(named(staffAuthRoutes), {
    authRateLimitPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(named(staffRoutes));
  await app.register(named(adminOrderRoutes));
  await app.register(named(adminProductRoutes));
  await app.register(named(adminCategoryRoutes));
  await app.register(named(adminCustomerRoutes));
  await app.register(named(adminReviewRoutes));
  await app.register(named(adminSalesRoutes), { timeZone: config.timeZone });
  await app.register(named(auditRoutes));
  await app.register(named(apiKeyRoutes), {
    announceRevocation: () => shared.invalidation.publish(API_KEYS_TOPIC),
  });
};
