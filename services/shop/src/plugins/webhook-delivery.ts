import type { ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { DeliveryWorker } from '../modules/webhooks/delivery.js';

/**
 * The webhook delivery worker of this replica: starts when the app is ready, stops before it
 * closes (its attempts in flight end first, while the database is still open).
 */
export const webhookDelivery: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config }: { config: ShopConfig }) => {
    if (!config.webhooks.deliver) return;
    const worker = new DeliveryWorker(app.db, config.webhooks, app.log);
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());
  },
  { name: 'webhook-delivery', dependencies: ['database'] },
);
