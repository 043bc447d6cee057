import type { ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { DeliveryWorker } from '../modules/webhooks/delivery.js';
import {
  countDisabledWebhooks,
  oldestUndeliveredAgeSeconds,
} from '../modules/webhooks/repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's successful answers follow a commit that wrote events (see the hook below). */
    writesEvents?: boolean;
  }
}

/**
 * The webhook delivery worker of this replica: starts when the app is ready, stops before it
 * closes (its attempts in flight end first, while the database is still open).
 */
export const webhookDelivery: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config }: { config: ShopConfig }) => {
    if (!config.webhooks.deliver) return;
    const attempts = app.metrics.counter(
      'webhook_delivery_attempts_total',
      'Webhook delivery attempts by outcome (delivered: a 2xx; failed: anything else).',
      ['outcome'],
    );
    const disabled = app.metrics.counter(
      'webhook_subscriptions_disabled_total',
      'Webhook subscriptions disabled after failing for too long.',
    );
    // Read from the database on each scrape: the same on every replica (aggregate with max).
    app.metrics.gauge(
      'webhook_oldest_undelivered_event_age_seconds',
      'Seconds since the oldest event not yet delivered was committed or queued (a pending delivery to an enabled subscription); 0 when none.',
      async (gauge) => gauge.set(await oldestUndeliveredAgeSeconds(app.db)),
    );
    app.metrics.gauge(
      'webhook_subscriptions_disabled',
      'Webhook subscriptions now disabled: by the shop (failing too long) or by their owner.',
      async (gauge) => {
        const count = await countDisabledWebhooks(app.db);
        gauge.set({ by: 'shop' }, count.shop);
        gauge.set({ by: 'owner' }, count.owner);
      },
      ['by'],
    );
    const worker = new DeliveryWorker(app.db, config.webhooks, app.log, {
      attempted: (outcome) => attempts.inc({ outcome }),
      disabled: () => disabled.inc(),
    });
    // A write answered here committed events: this replica's worker numbers and sends them at
    // once instead of at its next poll. (Not a NOTIFY from the transaction: PostgreSQL holds a
    // database-wide lock from a notifying transaction's commit until it ends, so orders would
    // commit one at a time: 11-25 % fewer orders a second at 16 connections, measured.) Events
    // committed on other replicas, or by other paths, are found by the poll. The hook is added
    // to the routes that write events only, so no other request (the product list …) runs it.
    const wake: onResponseHookHandler = (_request, reply, done) => {
      if (reply.statusCode < 300) worker.eventsCommitted();
      done();
    };
    app.addHook('onRoute', (route) => {
      if (!route.config?.writesEvents) return;
      const own = route.onResponse ?? [];
      route.onResponse = [...(Array.isArray(own) ? own : [own]), wake];
    });
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());
  },
  { name: 'webhook-delivery', dependencies: ['database'] },
);
